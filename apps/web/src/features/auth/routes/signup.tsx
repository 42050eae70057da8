import Box from '@mui/material/Box';
import { Suspense, lazy } from 'react';
import { useSearchParams } from 'react-router';
import { LoadingState } from '../../../components/loading-state';
import { PageTitle } from '../../../components/page-title';
import { QueryCache } from '../../../components/query-cache';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { useStagedRender } from '../../../lib/use-staged-render';
import { SIGNUP_FORM_FIELDS, SignupForm } from '../components/signup-form';

/**
 * The height of the plain sign-up form and the link below it once shown (measured in Chromium, the
 * same on a phone and a desktop screen: their widths change, not their heights).
 */
const SIGNUP_FORM_AND_LINK_HEIGHT_PX = 267.25;

const InviteSignup = lazy(async () => ({ default: (await import('./invite-signup')).InviteSignup }));

/** /signup: plain sign-up, or its invite variant when the query carries an e-mail (spec section 2). */
export function SignupRoute() {
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email');
  const token = searchParams.get('token');
  // The title first (the page's largest text), then the form a field at a time, then the link
  // below it: on a slow phone each is a task of tens of milliseconds, one render all of them.
  const shown = useStagedRender(SIGNUP_FORM_FIELDS + 1);
  // The card is centred on the screen: while the form and the link appear, their height is
  // reserved, or the title would move up at each step.
  const isReserving = email === null && shown <= SIGNUP_FORM_FIELDS;

  return (
    <>
      <PageTitle title="Sign up">Sign up</PageTitle>
      <Box sx={isReserving ? { minHeight: SIGNUP_FORM_AND_LINK_HEIGHT_PX } : undefined}>
        {email === null ? (
          shown >= 1 ? (
            <QueryCache>
              <SignupForm shownFields={shown} />
            </QueryCache>
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
      </Box>
    </>
  );
}
