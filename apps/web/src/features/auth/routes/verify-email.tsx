import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { PageTitle } from '../../../components/page-title';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useLogout } from '../../../lib/logout';
import { useCurrentUser } from '../../../lib/use-session';
import { useSendVerificationEmail } from '../api/send-verification-email';

export const VERIFICATION_SENT_MESSAGE = 'Verification email sent';

/**
 * /verify (route name verifyEmail): shown while the e-mail address is not verified. It shows no
 * pending invitation: the server tells of invitations only to a verified address (the sign-up mails
 * the address's owner a reminder instead), so asking here would only be refused.
 */
export function VerifyEmailRoute() {
  const user = useCurrentUser();
  const logout = useLogout();
  const resend = useSendVerificationEmail();
  if (!user) return null;

  return (
    <>
      <PageTitle title="Verify your email">Verify your email</PageTitle>
      <Typography sx={{ mb: 1 }}>
        A confirmation email has been sent to <strong>{user.email}</strong>.
      </Typography>
      <Typography sx={{ mb: 3 }}>Follow the link in that email to verify your address, then log in again.</Typography>
      {resend.isSuccess ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {VERIFICATION_SENT_MESSAGE}
        </Alert>
      ) : null}
      {resend.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(resend.error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
        <Button variant="outlined" onClick={() => void logout()}>
          Logout
        </Button>
        <Button variant="contained" loading={resend.isPending} onClick={() => resend.mutate({ user_id: user.id })}>
          Resend Verification Email
        </Button>
      </Box>
    </>
  );
}
