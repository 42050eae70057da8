import Box from '@mui/material/Box';
import { Suspense, lazy } from 'react';
import { useSearchParams } from 'react-router';
import { LoadingState } from '../../../components/loading-state';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { SignupForm } from '../components/signup-form';

const InviteSignup = lazy(async () => ({ default: (await import('./invite-signup')).InviteSignup }));

/** /signup: plain sign-up, or its invite variant when the query carries an e-mail (spec section 2). */
export function SignupRoute() {
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email');
  const token = searchParams.get('token');

  return (
    <>
      <PageTitle title="Sign up">Sign up</PageTitle>
      <Box>
        {email === null ? (
          <SignupForm />
        ) : (
          <Suspense fallback={<LoadingState label="Loading the sign-up form..." />}>
            <InviteSignup token={token} email={email} />
          </Suspense>
        )}
        <Box sx={{ mt: 3 }}>
          <RouterLink to={paths.login}>Back to login</RouterLink>
        </Box>
      </Box>
    </>
  );
}
