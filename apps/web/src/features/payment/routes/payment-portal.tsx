import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { DocumentRedirect } from '../../../components/document-redirect';
import { LoadingState } from '../../../components/loading-state';
import { RouterLink } from '../../../components/router-link';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../config/paths';
import { replyMessageOr } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/use-session';
import { useBillingPortalSession } from '../api/create-billing-portal-session';

/** Verbatim from the spec (sections 2 and 8), spelling included. */
export const REDIRECTING_TO_BILLING_MESSAGE = 'Redirecting to billing portal...';
export const BILLING_FALLBACK_ERROR = 'Unkown error when redirecting to payment portal';

export const NO_PAYMENT_CUSTOMER_EXPLANATION =
  'Your account has no subscription with a payment provider, so there is no billing portal to open.';

function BackToAccount() {
  return (
    <Box sx={{ mt: 3 }}>
      <RouterLink to={paths.profile}>Back to account</RouterLink>
    </Box>
  );
}

function BillingRedirect() {
  const session = useBillingPortalSession();
  const redirecting = <LoadingState label={REDIRECTING_TO_BILLING_MESSAGE} />;
  if (session.isError) {
    return (
      <>
        <Alert severity="error">{replyMessageOr(session.error, BILLING_FALLBACK_ERROR)}</Alert>
        <BackToAccount />
      </>
    );
  }
  if (session.isPending) return redirecting;
  return <DocumentRedirect href={session.data}>{redirecting}</DocumentRedirect>;
}

/** /payment/portal: sends the browser to the payment provider's billing portal (decision 16). */
export function PaymentPortalRoute() {
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <>
      <ScreenHeader title="Billing portal" />
      {user.hasPaymentCustomer ? (
        <BillingRedirect />
      ) : (
        // Without a payment customer identifier nothing is asked of the server (spec section 5).
        <>
          <Typography>{NO_PAYMENT_CUSTOMER_EXPLANATION}</Typography>
          <BackToAccount />
        </>
      )}
    </>
  );
}
