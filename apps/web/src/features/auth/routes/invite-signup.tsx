import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { LoadingState } from '../../../components/loading-state';
import { paths } from '../../../config/paths';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useSignupInvitation } from '../api/get-signup-invitation';
import { InviteSignupForm } from '../components/invite-signup-form';

function InvitationSignup({ token, email }: { token: string; email: string }) {
  const navigate = useNavigate();
  const invitation = useSignupInvitation({ token, email });

  if (invitation.isPending) return <LoadingState label="Checking your invitation..." />;
  if (invitation.isError) {
    return <Alert severity="error">{errorMessage(invitation.error, UNKNOWN_ERROR_MESSAGE)}</Alert>;
  }
  return (
    <>
      {invitation.data.orgName ? (
        <Typography sx={{ mb: 1 }}>You have been invited to join {invitation.data.orgName}.</Typography>
      ) : null}
      <InviteSignupForm token={token} email={invitation.data.email} onSignedUp={() => void navigate(paths.callback)} />
    </>
  );
}

/**
 * The invite variant of sign-up (the query carries an e-mail): with the e-mailed token, the
 * invitation is checked first.
 */
export function InviteSignup({ token, email }: { token: string | null; email: string }) {
  return token ? (
    <InvitationSignup token={token} email={email} />
  ) : (
    <InviteSignupForm token={null} email={email} onSignedUp={() => undefined} />
  );
}
