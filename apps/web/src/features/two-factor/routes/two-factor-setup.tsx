import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { VisuallyHidden } from '../../../components/visually-hidden';
import { paths } from '../../../config/paths';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { assignLocation } from '../../../lib/browser';
import { toRouterPath, toSameOriginPath } from '../../../lib/safe-path';
import { useTwoFactorStatus } from '../api/get-two-factor-status';
import { PasskeyForm } from '../components/passkey-form';
import { listNames } from '../components/required-by';
import { TotpSetup } from '../components/totp-setup';

export const SETUP_TITLE = 'Set up two-step verification';
export const USE_APP_LABEL = 'Use an authenticator app';
export const USE_PASSKEY_LABEL = 'Use a passkey';

type Method = 'totp' | 'passkey';

/**
 * /two-factor/setup?next: a person whose organisation requires a second factor sets one up before
 * the first ID token (decision 0066); the callback sends them here and `next` takes them back to
 * it, which then gets its token. Only the session cookie is needed, as for the license screen.
 */
export function TwoFactorSetupRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const next = toSameOriginPath(searchParams.get('next'), window.location.origin) ?? paths.callback;
  const status = useTwoFactorStatus();
  const [method, setMethod] = useState<Method | null>(null);
  const [isPasskeyAdded, setIsPasskeyAdded] = useState(false);

  const goNext = () => {
    const routerPath = toRouterPath(next);
    if (routerPath) void navigate(routerPath, { replace: true });
    else assignLocation(next);
  };

  const title = <PageTitle title={SETUP_TITLE}>{SETUP_TITLE}</PageTitle>;

  if (status.isPending) {
    return (
      <>
        {title}
        <Stack spacing={2} role="status">
          <VisuallyHidden>Loading</VisuallyHidden>
          <Skeleton variant="text" />
          <Skeleton variant="rounded" height={44} />
          <Skeleton variant="rounded" height={44} />
        </Stack>
      </>
    );
  }
  if (status.isError) {
    return (
      <>
        {title}
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void status.refetch()}>
              Retry
            </Button>
          }
        >
          {errorMessage(status.error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
        <Box sx={{ mt: 3 }}>
          <RouterLink to={paths.login}>Back to login</RouterLink>
        </Box>
      </>
    );
  }

  const { requiredBy, totp, passkeys } = status.data;
  const hasFactor = totp.enabled || passkeys.length > 0;
  const requirement =
    requiredBy.length > 0
      ? `${listNames(requiredBy)} ${requiredBy.length === 1 ? 'requires' : 'require'} a second step when you sign in, to keep your account safe. Set one up to continue.`
      : ERROR_CODES.TWO_FACTOR_ENROLMENT_REQUIRED.message;

  return (
    <>
      {title}
      {method === null ? (
        hasFactor ? (
          <>
            <Alert severity="success" role="status" sx={{ mb: 2 }}>
              Two-step verification is set up for your account.
            </Alert>
            <Button variant="contained" size="large" fullWidth onClick={goNext}>
              Continue
            </Button>
          </>
        ) : (
          <>
            <Typography sx={{ mb: 2 }}>{requirement}</Typography>
            <Typography sx={{ mb: 2 }}>Choose how you will confirm it is you:</Typography>
            <Stack spacing={1.5}>
              <Button variant="contained" size="large" onClick={() => setMethod('totp')}>
                {USE_APP_LABEL}
              </Button>
              <Typography variant="body2" color="text.secondary">
                A 6-digit code from an app on your phone, with recovery codes in case you lose it.
              </Typography>
              <Button variant="outlined" size="large" onClick={() => setMethod('passkey')}>
                {USE_PASSKEY_LABEL}
              </Button>
              <Typography variant="body2" color="text.secondary">
                Your fingerprint, face, screen lock or a security key on this device.
              </Typography>
            </Stack>
          </>
        )
      ) : method === 'totp' ? (
        <>
          <Typography variant="h2" sx={{ mb: 2 }}>
            Authenticator app
          </Typography>
          <TotpSetup doneLabel="Continue" onDone={goNext} />
        </>
      ) : (
        <>
          <Typography variant="h2" sx={{ mb: 2 }}>
            Passkey
          </Typography>
          {isPasskeyAdded ? (
            <>
              <Alert severity="success" role="status" sx={{ mb: 2 }}>
                Your passkey is added. Use it with your password when you sign in.
              </Alert>
              <Button variant="contained" size="large" fullWidth onClick={goNext}>
                Continue
              </Button>
            </>
          ) : (
            <PasskeyForm onAdded={() => setIsPasskeyAdded(true)} />
          )}
        </>
      )}
      {/* Once a factor is set up (the app's recovery codes still to save), there is nothing else to choose. */}
      {method !== null && !hasFactor ? (
        <Box sx={{ mt: 3 }}>
          <Button onClick={() => setMethod(null)}>Choose another method</Button>
        </Box>
      ) : null}
    </>
  );
}
