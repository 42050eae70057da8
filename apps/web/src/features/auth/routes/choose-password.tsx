import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';

export const MISSING_TOKEN_MESSAGE = 'Error: Missing token';

/** /choose-password?token: a provisioned account's first password (decision 15). */
export function ChoosePasswordRoute() {
  const [searchParams] = useSearchParams();
  return (
    <>
      <PageTitle title="Choose password">Choose password</PageTitle>
      {searchParams.get('token') ? null : <Alert severity="error">{MISSING_TOKEN_MESSAGE}</Alert>}
      <Box sx={{ mt: 3 }}>
        <RouterLink to={paths.login}>Back to login</RouterLink>
      </Box>
    </>
  );
}
