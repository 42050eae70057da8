import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { VERIFIED_REDIRECT_MS } from '@patientsim/domain/common/constants';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';

export const EMAIL_VERIFIED_MESSAGE = 'Your email address has been verified. Redirecting to login...';

/** /emailVerified: where the verification link lands; goes on to login after 1.5 seconds. */
export function EmailVerifiedRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // The verification endpoint reports a bad or expired link with an error query.
  const hasFailed = searchParams.has('error');

  useEffect(() => {
    if (hasFailed) return undefined;
    const id = window.setTimeout(() => void navigate(paths.login, { replace: true }), VERIFIED_REDIRECT_MS);
    return () => window.clearTimeout(id);
  }, [hasFailed, navigate]);

  return (
    <>
      <PageTitle title="Email verification">Email verification</PageTitle>
      {hasFailed ? (
        <>
          <Alert severity="error">{ERROR_CODES.VERIFICATION_TOKEN_INVALID.message}</Alert>
          <Box sx={{ mt: 3 }}>
            <RouterLink to={paths.login}>Back to login</RouterLink>
          </Box>
        </>
      ) : (
        <Alert severity="success" role="status">
          {EMAIL_VERIFIED_MESSAGE}
        </Alert>
      )}
    </>
  );
}
