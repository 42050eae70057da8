import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useNavigate, useSearchParams } from 'react-router';
import { LoadingState } from '../../../components/loading-state';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useSignupInvitation } from '../api/get-signup-invitation';
import { InviteSignupForm } from '../components/invite-signup-form';
import { SignupForm } from '../components/signup-form';

function InviteSignup({ token, email }: { token: string; email: string }) {
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

/** /signup: plain sign-up, or its invite variant when the query carries an e-mail (spec section 2). */
export function SignupRoute() {
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email');
  const token = searchParams.get('token');

  return (
    <>
      <PageTitle title="Sign up">Sign up</PageTitle>
      {email === null ? (
        <SignupForm />
      ) : token ? (
        <InviteSignup token={token} email={email} />
      ) : (
        <InviteSignupForm token={null} email={email} onSignedUp={() => undefined} />
      )}
      <Box sx={{ mt: 3 }}>
        <RouterLink to={paths.login}>Back to login</RouterLink>
      </Box>
    </>
  );
}
