import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useNavigate, useSearchParams } from 'react-router';
import { LoadingState } from '../../../components/loading-state';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { replyMessageOr } from '../../../lib/api-client';
import { useProvisioning } from '../api/get-provisioning';
import { ChoosePasswordForm, PROVISIONING_FALLBACK_ERROR } from '../components/choose-password-form';

/** Verbatim from the spec (section 5). */
export const MISSING_TOKEN_MESSAGE = 'Error: Missing token';

function ChoosePassword({ token }: { token: string }) {
  const navigate = useNavigate();
  const provisioning = useProvisioning(token);
  if (provisioning.isPending) return <LoadingState label="Checking your link..." />;
  if (provisioning.isError) {
    return <Alert severity="error">{replyMessageOr(provisioning.error, PROVISIONING_FALLBACK_ERROR)}</Alert>;
  }
  // Signed in: the callback continues (license for a new account, then the scenarios).
  return <ChoosePasswordForm token={token} person={provisioning.data} onCreated={() => void navigate(paths.callback)} />;
}

/** /choose-password?token: a provisioned account's first password (decision 15). */
export function ChoosePasswordRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  return (
    <>
      <PageTitle title="Choose password">Choose password</PageTitle>
      {token ? <ChoosePassword token={token} /> : <Alert severity="error">{MISSING_TOKEN_MESSAGE}</Alert>}
      <Box sx={{ mt: 3 }}>
        <RouterLink to={paths.login}>Back to login</RouterLink>
      </Box>
    </>
  );
}
