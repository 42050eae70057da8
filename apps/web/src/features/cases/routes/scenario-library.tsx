import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { ScreenHeader } from '../../../components/screen-header';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { useCurrentUser, useSession } from '../../../lib/use-session';
import { CaseLibrary } from '../components/case-library';

/**
 * /authoring/cases (decision 1): the scenario library of the active organisation. An inactive
 * organisation has no access to cases (spec section 4); a subscribed member without an active subscription of their own is told
 * that their subscription opens the scenarios (decision 0035).
 */
export function ScenarioLibraryRoute() {
  const user = useCurrentUser();
  const { result } = useSession();
  if (!user || !result) return null;
  const { activeOrg } = user;
  // A person with no organisation has a page of their own (app/routes/scenarios.tsx).
  if (!activeOrg) return null;
  return (
    <>
      <ScreenHeader title="Scenarios" />
      {user.isActiveOrgInactive ? (
        <Alert severity="warning" sx={{ maxWidth: 720 }}>
          {activeOrg.name} is inactive. Inactive organizations have no access to cases. Contact your organization administrator.
        </Alert>
      ) : user.isActiveOrgContentLocked ? (
        <Alert severity="info" sx={{ maxWidth: 720 }}>
          <Typography variant="body1" gutterBottom>
            You joined {activeOrg.name} through a subscription: its scenarios open while your own subscription is active, and it
            is not active now. You remain a member and still receive its notifications.
          </Typography>
          {user.hasPaymentCustomer ? (
            <RouterLink to={paths.paymentPortal}>Manage your subscription</RouterLink>
          ) : (
            <RouterLink to={paths.profile}>Go to your account</RouterLink>
          )}
        </Alert>
      ) : (
        <CaseLibrary key={activeOrg.id} productType={result.idTokenPayload.productType} isStudent={user.isStudent} />
      )}
    </>
  );
}
