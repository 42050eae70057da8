import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { DocumentRedirect } from '../../../components/document-redirect';
import { LoadingState } from '../../../components/loading-state';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { readCallbackError, useCompleteLogin } from '../api/complete-login';

export const LOGGING_IN_MESSAGE = 'Logging you in...';
/** Verbatim from the spec, spelling included. */
export const LOGIN_FALLBACK_ERROR = 'Unkown error during authentication';

/** /callback: completes the sign-in, then goes to redirectUrl, org selection or verifyEmail. */
export function CallbackRoute() {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  // A failed sign-in reported in the fragment is shown as it is: nothing is completed.
  const reported = readCallbackError(location.hash);
  const login = useCompleteLogin(
    {
      redirectUrl: searchParams.get('redirectUrl'),
      callbackPath: `${location.pathname}${location.search}`,
      origin: window.location.origin,
      oauthQuery: searchParams.get('oauthQuery'),
    },
    { isEnabled: reported === null },
  );

  if (reported !== null || login.isError) {
    return (
      <>
        <PageTitle title="Log in">Log in</PageTitle>
        <Alert severity="error">{reported ?? errorMessage(login.error, LOGIN_FALLBACK_ERROR)}</Alert>
        <Box sx={{ mt: 3 }}>
          <RouterLink to={paths.login}>Back to login</RouterLink>
        </Box>
      </>
    );
  }

  const loading = (
    <>
      <PageTitle title="Log in">Log in</PageTitle>
      <LoadingState label={LOGGING_IN_MESSAGE} />
    </>
  );
  if (login.isPending) return loading;
  const destination = login.data;
  return destination.kind === 'route' ? (
    <Navigate to={destination.to} replace />
  ) : (
    <DocumentRedirect href={destination.href}>{loading}</DocumentRedirect>
  );
}
