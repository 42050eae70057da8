import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { licensePath, paths } from '../../../config/paths';
import { readLoginNotice } from '../../../lib/login-notice';
import { LoginForm } from '../components/login-form';
import { readOAuthQuery } from '@patientsim/domain/auth/auth.schemas';

/**
 * /login (alias /): e-mail and password; a redirectUrl query, or another application's signed
 * authorization request, is carried through to the callback.
 */
export function LoginRoute() {
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const notice = readLoginNotice(location.state);
  const redirectUrl = searchParams.get('redirectUrl');
  // Another application's sign-in (decision 0065): its signed request goes through to the callback.
  const oauthQuery = readOAuthQuery(location.search);
  const callbackQuery = new URLSearchParams({
    ...(redirectUrl ? { redirectUrl } : {}),
    ...(oauthQuery ? { oauthQuery } : {}),
  }).toString();
  const callback = callbackQuery ? `${paths.callback}?${callbackQuery}` : paths.callback;

  return (
    <>
      <PageTitle title="Log in">Log in</PageTitle>
      {notice ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      ) : null}
      <LoginForm
        onSignedIn={({ licenseToken }) =>
          // A license still to accept comes first: the callback would be refused its ID token until then.
          void navigate(licenseToken ? licensePath(licenseToken, callback) : callback)
        }
      />
      <Box sx={{ mt: 3, display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2 }}>
        <RouterLink to={paths.signup}>Create an account</RouterLink>
        <RouterLink to={paths.resetPassword}>Forgot your password?</RouterLink>
      </Box>
    </>
  );
}
