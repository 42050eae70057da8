import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { assignLocation } from '../../../lib/browser';
import { toRouterPath, toSameOriginPath } from '../../../lib/safe-path';
import { LicenseForm } from '../components/license-form';

const EULA_URL = `${import.meta.env.BASE_URL}EULA.pdf`;

/** /license?token&next: the license agreement PDF and the agree choice (decision 14). */
export function LicenseRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const next = toSameOriginPath(searchParams.get('next'), window.location.origin) ?? paths.callback;

  const goNext = () => {
    const routerPath = toRouterPath(next);
    if (routerPath) void navigate(routerPath, { replace: true });
    else assignLocation(next);
  };

  return (
    <>
      <PageTitle title="License agreement">License agreement</PageTitle>
      <Box
        component="iframe"
        src={EULA_URL}
        title="License agreement (PDF)"
        sx={{ width: '100%', height: { xs: 320, sm: 420 }, border: 1, borderColor: 'divider', borderRadius: 1 }}
      />
      <Box sx={{ mb: 2 }}>
        <Link href={EULA_URL} target="_blank" rel="noopener">
          Open the license agreement (PDF) in a new tab
        </Link>
      </Box>
      {token ? (
        <LicenseForm token={token} onAccepted={goNext} />
      ) : (
        <>
          <Alert severity="error">{ERROR_CODES.LICENSE_TOKEN_INVALID.message}</Alert>
          <Box sx={{ mt: 3 }}>
            <RouterLink to={paths.login}>Back to login</RouterLink>
          </Box>
        </>
      )}
    </>
  );
}
