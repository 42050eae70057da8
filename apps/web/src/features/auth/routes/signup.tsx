import Box from '@mui/material/Box';
import { Suspense, lazy } from 'react';
import { useSearchParams } from 'react-router';
import { LoadingState } from '../../../components/loading-state';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { useStagedRender } from '../../../lib/use-staged-render';
import { SIGNUP_FORM_FIELDS, SignupForm } from '../components/signup-form';

const InviteSignup = lazy(async () => ({ default: (await import('./invite-signup')).InviteSignup }));

/** /signup: plain sign-up, or its invite variant when the query carries an e-mail (spec section 2). */
export function SignupRoute() {
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email');
  const token = searchParams.get('token');
  // The title first (the page's largest text), then the form a field at a time, then the link
  // below it: on a slow phone each is a task of tens of milliseconds, one render all of them.
  const shown = useStagedRender(SIGNUP_FORM_FIELDS + 1);

  return (
    <>
      <PageTitle title="Sign up">Sign up</PageTitle>
      {email === null ? (
        shown >= 1 ? (
          <SignupForm shownFields={shown} />
        ) : null
      ) : (
        <Suspense fallback={<LoadingState label="Loading the sign-up form..." />}>
          <InviteSignup token={token} email={email} />
        </Suspense>
      )}
      {shown > SIGNUP_FORM_FIELDS ? (
        <Box sx={{ mt: 3 }}>
          <RouterLink to={paths.login}>Back to login</RouterLink>
        </Box>
      ) : null}
    </>
  );
}
