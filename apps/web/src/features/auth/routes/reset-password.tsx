import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { NewPasswordForm } from '../components/new-password-form';
import { ResetRequestForm } from '../components/reset-request-form';

/** /reset-password: e-mail entry, or the new password when opened from the e-mail's link. */
export function ResetPasswordRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  return (
    <>
      <PageTitle title="Reset password">Reset password</PageTitle>
      {token ? (
        <NewPasswordForm token={token} />
      ) : (
        <>
          <Typography sx={{ mb: 1 }}>Enter your email and we will send you a link to choose a new password.</Typography>
          <ResetRequestForm />
        </>
      )}
      <Box sx={{ mt: 3 }}>
        <RouterLink to={paths.login}>Back to login</RouterLink>
      </Box>
    </>
  );
}
