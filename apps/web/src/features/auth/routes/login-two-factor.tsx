import Box from '@mui/material/Box';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { licensePath } from '../../../config/paths';
import type { LoginNotice } from '../../../lib/login-notice';
import { SecondFactorForm } from '../components/second-factor-form';
import { callbackPathOf, loginPathOf, readSecondFactorMethods } from '../components/sign-in-steps';

/**
 * /login/two-factor: the sign-in's second step after a correct password (decision 0066). Its query
 * names the account's methods and carries the login page's redirectUrl and authorization request,
 * so that a reload keeps them; then on exactly as after a password sign-in (license, callback).
 */
export function LoginTwoFactorRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const continuation = { redirectUrl: searchParams.get('redirectUrl'), oauthQuery: searchParams.get('oauthQuery') };
  const callback = callbackPathOf(continuation);
  const loginPath = loginPathOf(continuation);

  return (
    <>
      <PageTitle title="Two-step verification">Two-step verification</PageTitle>
      <SecondFactorForm
        methods={readSecondFactorMethods(searchParams.get('methods'))}
        onSignedIn={({ licenseToken }) =>
          void navigate(licenseToken ? licensePath(licenseToken, callback) : callback, { replace: true })
        }
        onExpired={() => {
          const state: LoginNotice = { notice: ERROR_CODES.SECOND_FACTOR_EXPIRED.message, severity: 'warning' };
          void navigate(loginPath, { replace: true, state });
        }}
      />
      <Box sx={{ mt: 3 }}>
        <RouterLink to={loginPath}>Back to login</RouterLink>
      </Box>
    </>
  );
}
