import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useReclaimEmail } from '../api/reclaim-email';
import { NewPasswordForm } from '../components/new-password-form';

export const RECLAIM_INTRO =
  'Your organization changed the email address of your PatientSim account. If you did not agree to this, take the account back: this address becomes its address again, the account is signed out everywhere, and you choose a new password.';
export const RECLAIM_MISSING_TOKEN_MESSAGE = 'This link is incomplete. Open it from your email again.';
export const reclaimedMessage = (email: string) =>
  `Your account is back at ${email} and has been signed out everywhere. Choose a new password to finish.`;

/**
 * The confirmation is a button, not the page load: mail scanners that open links must not use up
 * the single-use link.
 */
function Reclaim({ token }: { token: string }) {
  const reclaim = useReclaimEmail();
  if (reclaim.isSuccess) {
    return (
      <>
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {reclaimedMessage(reclaim.data.email)}
        </Alert>
        <NewPasswordForm token={reclaim.data.resetToken} />
      </>
    );
  }
  return (
    <>
      <Typography sx={{ mb: 2 }}>{RECLAIM_INTRO}</Typography>
      {reclaim.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(reclaim.error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
      ) : null}
      <Button variant="contained" size="large" fullWidth loading={reclaim.isPending} onClick={() => reclaim.mutate({ token })}>
        Take my account back
      </Button>
    </>
  );
}

/** /reclaim-email?token: the "this wasn't me" link mailed to the old address after an admin changed it. */
export function ReclaimEmailRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  return (
    <>
      <PageTitle title="Take your account back">Take your account back</PageTitle>
      {token ? <Reclaim token={token} /> : <Alert severity="error">{RECLAIM_MISSING_TOKEN_MESSAGE}</Alert>}
      <Box sx={{ mt: 3 }}>
        <RouterLink to={paths.login}>Back to login</RouterLink>
      </Box>
    </>
  );
}
