import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { SignInAnswer } from '@patientsim/domain/auth/auth.schemas';
import {
  type SecondFactorBody,
  SecondFactorBodySchema,
  type SecondFactorMethod,
} from '@patientsim/domain/auth/two-factor.schemas';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, isApiError } from '../../../lib/api-client';
import { passkeyErrorMessage } from '../../../lib/passkey-errors';
import { useSignInWithPasskey } from '../api/sign-in-with-passkey';
import { useVerifySecondFactor } from '../api/verify-second-factor';

export const VERIFY_LABEL = 'Verify';
export const USE_RECOVERY_CODE_LABEL = 'Use a recovery code instead';
export const USE_APP_CODE_LABEL = 'Use a code from your authenticator app instead';
export const USE_PASSKEY_LABEL = 'Use a passkey';

type SecondFactorInput = z.input<typeof SecondFactorBodySchema>;

function isExpired(error: unknown): boolean {
  return isApiError(error) && error.code === 'SECOND_FACTOR_EXPIRED';
}

/** A refusal other than a wrong code (shown on the field) or an expired sign-in (sent back to the password). */
function stepErrorMessage(error: Error): string {
  if (isApiError(error) && error.code === 'RATE_LIMITED') {
    const wait = error.retryAfterSeconds;
    if (wait === null || wait <= 0) return ERROR_CODES.RATE_LIMITED.message;
    const minutes = Math.ceil(wait / 60);
    return `Too many attempts. Try again in ${wait < 60 ? `${wait} seconds` : minutes === 1 ? '1 minute' : `${minutes} minutes`}.`;
  }
  return errorMessage(error, UNKNOWN_ERROR_MESSAGE);
}

/**
 * The sign-in's second step: the 6-digit code of the authenticator app (or, switched to, one of its
 * recovery codes), and a passkey when the account has one. A wrong code shows on the field; an
 * expired sign-in (10 minutes after the password) goes back to the password step.
 */
export function SecondFactorForm({
  methods,
  onSignedIn,
  onExpired,
}: {
  methods: readonly SecondFactorMethod[];
  onSignedIn: (answer: SignInAnswer) => void;
  onExpired: () => void;
}) {
  const verify = useVerifySecondFactor();
  const passkey = useSignInWithPasskey();
  const hasApp = methods.includes('totp');
  const hasPasskey = methods.includes('passkey');
  const { control, handleSubmit, setError, setValue, clearErrors, setFocus } = useForm<
    SecondFactorInput,
    unknown,
    SecondFactorBody
  >({
    resolver: zodResolver(SecondFactorBodySchema),
    defaultValues: { kind: 'totp', code: '' },
  });
  const kind = useWatch({ control, name: 'kind' });
  const isBusy = verify.isPending || passkey.isPending;

  const onSubmit = handleSubmit((body) =>
    verify.mutate(body, {
      onSuccess: onSignedIn,
      onError: (error) => {
        if (isExpired(error)) onExpired();
        else if (isApiError(error) && error.code === 'SECOND_FACTOR_INVALID') {
          verify.reset();
          setError('code', { message: error.message || ERROR_CODES.SECOND_FACTOR_INVALID.message }, { shouldFocus: true });
        }
      },
    }),
  );

  const switchKind = () => {
    setValue('kind', kind === 'totp' ? 'recovery' : 'totp');
    setValue('code', '');
    clearErrors();
    verify.reset();
    setFocus('code');
  };

  const usePasskey = () =>
    passkey.mutate(undefined, { onSuccess: onSignedIn, onError: (error) => (isExpired(error) ? onExpired() : undefined) });

  return (
    <>
      {verify.isError && !isExpired(verify.error) ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {stepErrorMessage(verify.error)}
        </Alert>
      ) : null}
      {passkey.isError && !isExpired(passkey.error) ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {passkeyErrorMessage(passkey.error)}
        </Alert>
      ) : null}
      {hasApp ? (
        <Box component="form" method="post" noValidate onSubmit={onSubmit}>
          <Typography>
            {kind === 'totp'
              ? 'Enter the 6-digit code from your authenticator app.'
              : 'Enter one of the recovery codes you saved when you set up your authenticator app. Each code works once.'}
          </Typography>
          {kind === 'totp' ? (
            <FormTextField
              key="totp"
              control={control}
              name="code"
              label="6-digit code"
              autoComplete="one-time-code"
              autoFocus
              required
              slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', maxLength: 6 } }}
            />
          ) : (
            <FormTextField
              key="recovery"
              control={control}
              name="code"
              label="Recovery code"
              autoComplete="off"
              autoFocus
              required
              slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
            />
          )}
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            loading={verify.isPending}
            disabled={isBusy}
            sx={{ mt: 2 }}
          >
            {VERIFY_LABEL}
          </Button>
          <Button fullWidth onClick={switchKind} disabled={isBusy} sx={{ mt: 1 }}>
            {kind === 'totp' ? USE_RECOVERY_CODE_LABEL : USE_APP_CODE_LABEL}
          </Button>
        </Box>
      ) : (
        <Typography>Use the passkey you set up for your account.</Typography>
      )}
      {hasPasskey ? (
        <>
          {hasApp ? <Divider sx={{ my: 2 }}>or</Divider> : null}
          <Button
            variant={hasApp ? 'outlined' : 'contained'}
            size="large"
            fullWidth
            loading={passkey.isPending}
            disabled={isBusy}
            onClick={usePasskey}
            sx={hasApp ? undefined : { mt: 2 }}
          >
            {USE_PASSKEY_LABEL}
          </Button>
        </>
      ) : null}
    </>
  );
}
