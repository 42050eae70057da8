import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { type TotpEnrolment, type TotpVerifyBody, TotpVerifyBodySchema } from '@patientsim/domain/auth/two-factor.schemas';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, isApiError } from '../../../lib/api-client';
import { useStartTotp } from '../api/start-totp';
import { useVerifyTotp } from '../api/verify-totp';
import { PasswordForm } from './password-form';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TotpQrCode, totpSecretOf } from './totp-qr-code';

export const SETUP_KEY_LABEL = 'Setup key';

/** A wrong first code: on the field, as the sign-in shows it. */
function isWrongCode(error: unknown): boolean {
  return isApiError(error) && (error.code === 'SECOND_FACTOR_INVALID' || error.code === 'VALIDATION_FAILED');
}

/** The QR code and key, then the first code that proves the app holds the secret. */
function ScanStep({
  enrolment,
  onVerified,
  onCancel,
}: {
  enrolment: TotpEnrolment;
  onVerified: () => void;
  onCancel: (() => void) | undefined;
}) {
  const verify = useVerifyTotp();
  const secret = totpSecretOf(enrolment.totpUri);
  const isWrong = isWrongCode(verify.error);
  const { control, handleSubmit } = useForm<z.input<typeof TotpVerifyBodySchema>, unknown, TotpVerifyBody>({
    resolver: zodResolver(TotpVerifyBodySchema),
    defaultValues: { code: '' },
    ...(isWrong && verify.error ? { errors: { code: { type: 'server', message: verify.error.message } } } : {}),
  });
  return (
    <Box>
      <Typography sx={{ mb: 2 }}>
        Scan this QR code with your authenticator app (for example Google Authenticator, Microsoft Authenticator or 1Password).
      </Typography>
      <TotpQrCode uri={enrolment.totpUri} />
      {secret ? (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" component="p">
            Can't scan it? Enter this {SETUP_KEY_LABEL.toLowerCase()} in the app instead:
          </Typography>
          <Box
            component="code"
            aria-label={SETUP_KEY_LABEL}
            data-testid="totp-setup-key"
            sx={{ display: 'block', fontFamily: 'monospace', fontSize: '1rem', wordBreak: 'break-all', mt: 0.5 }}
          >
            {secret}
          </Box>
        </Box>
      ) : null}
      <Box
        component="form"
        noValidate
        onSubmit={handleSubmit((body) => verify.mutate(body, { onSuccess: onVerified }))}
        sx={{ mt: 2 }}
      >
        <Typography>Then enter the 6-digit code the app shows.</Typography>
        {verify.isError && !isWrong ? (
          <Alert severity="error" sx={{ mt: 1 }}>
            {errorMessage(verify.error, UNKNOWN_ERROR_MESSAGE)}
          </Alert>
        ) : null}
        <FormTextField
          control={control}
          name="code"
          label="6-digit code"
          autoComplete="one-time-code"
          required
          slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', maxLength: 6 } }}
        />
        <Box sx={{ mt: 1, display: 'flex', gap: 1 }}>
          {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
          <Button type="submit" variant="contained" loading={verify.isPending}>
            Verify
          </Button>
        </Box>
      </Box>
    </Box>
  );
}

/**
 * Setting up an authenticator app (decision 0066): the password again, then the QR code (and its
 * key as text) and a first code, then the recovery codes, shown once.
 */
export function TotpSetup({
  doneLabel,
  onDone,
  onCancel,
}: {
  doneLabel: string;
  onDone: () => void;
  /** Offered until the app is confirmed; after that, only the recovery codes' `doneLabel` goes on. */
  onCancel?: () => void;
}) {
  const start = useStartTotp();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [isVerified, setIsVerified] = useState(false);

  if (!enrolment) {
    return (
      <PasswordForm
        description={<Typography>Confirm your password to set up an authenticator app.</Typography>}
        error={start.error}
        isPending={start.isPending}
        submitLabel="Continue"
        onCancel={onCancel}
        onSubmit={(values) => start.mutate(values, { onSuccess: setEnrolment })}
      />
    );
  }
  if (!isVerified) return <ScanStep enrolment={enrolment} onVerified={() => setIsVerified(true)} onCancel={onCancel} />;
  return (
    <>
      <Alert severity="success" role="status" sx={{ mb: 2 }}>
        Your authenticator app is set up.
      </Alert>
      <RecoveryCodesPanel codes={enrolment.recoveryCodes} continueLabel={doneLabel} onContinue={onDone} />
    </>
  );
}
