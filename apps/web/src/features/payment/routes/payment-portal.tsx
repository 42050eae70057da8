import Box from '@mui/material/Box';
import { RouterLink } from '../../../components/router-link';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../config/paths';

/** /payment/portal. */
export function PaymentPortalRoute() {
  return (
    <>
      <ScreenHeader title="Billing portal" />
      <Box>
        <RouterLink to={paths.profile}>Back to account</RouterLink>
      </Box>
    </>
  );
}
