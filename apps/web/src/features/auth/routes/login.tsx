import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { licensePath, paths } from '../../../config/paths';
import { readLoginNotice, readLoginNoticeSeverity } from '../../../lib/login-notice';
import { LoginForm } from '../components/login-form';
import { callbackPathOf, secondFactorPathOf } from '../components/sign-in-steps';
import { readOAuthQuery } from '@patientsim/domain/auth/auth.schemas';

/**
 * /login (alias /): e-mail and password; a redirectUrl query, or another application's signed
 * authorization request, is carried through the second factor's step (when the account has one)
 * to the callback.
 */
export function LoginRoute() {
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const notice = readLoginNotice(location.state);
  // Another application's sign-in (decision 0065): its signed request goes through to the callback.
  const continuation = { redirectUrl: searchParams.get('redirectUrl'), oauthQuery: readOAuthQuery(location.search) };
  const callback = callbackPathOf(continuation);

  return (
    <>
      <PageTitle title="Log in">Log in</PageTitle>
      {notice ? (
        <Alert severity={readLoginNoticeSeverity(location.state)} role="status" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      ) : null}
      <LoginForm
        onSignedIn={(result) => {
          if ('secondFactor' in result) {
            void navigate(secondFactorPathOf(result.secondFactor.methods, continuation));
            return;
          }
          // A license still to accept comes first: the callback would be refused its ID token until then.
          void navigate(result.licenseToken ? licensePath(result.licenseToken, callback) : callback);
        }}
      />
      <Box sx={{ mt: 3, display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2 }}>
        <RouterLink to={paths.signup}>Create an account</RouterLink>
        <RouterLink to={paths.resetPassword}>Forgot your password?</RouterLink>
      </Box>
    </>
  );
}
