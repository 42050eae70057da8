import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { RouterLink } from '../../components/router-link';
import { ScreenHeader } from '../../components/screen-header';
import { paths } from '../../config/paths';
import { useCurrentUser } from '../../lib/use-session';
import { OrganisationMemberships } from '../../features/account/components/organisation-memberships';
import { ProfileForm } from '../../features/account/components/profile-form';
import { ScenarioSummaryMenu } from '../../features/account/components/scenario-summary-menu';
import { PendingInvitations } from '../../features/invitations/components/pending-invitations';

/**
 * /account/profile (route name profile, the guard's fallback): the user's details, pending
 * invitations, organisations, and for some users the scenario summaries and billing.
 */
export function ProfileRoute() {
  const user = useCurrentUser();
  const detailsId = useId();
  const billingId = useId();
  if (!user) return null;

  return (
    <>
      <ScreenHeader title="Profile" />
      {user.canDownloadScenarioSummary ? <ScenarioSummaryMenu /> : null}
      <Paper variant="outlined" component="section" aria-labelledby={detailsId} sx={{ p: 3, mb: 3 }}>
        <Typography id={detailsId} component="h2" variant="h2">
          Your details
        </Typography>
        <ProfileForm userId={user.id} saved={{ given_name: user.givenName, family_name: user.familyName, email: user.email }} />
      </Paper>
      <PendingInvitations userId={user.id} email={user.email} />
      <OrganisationMemberships userId={user.id} organisations={user.organisations} activeOrgId={user.activeOrg?.id ?? null} />
      {user.hasPaymentCustomer ? (
        <Paper variant="outlined" component="section" aria-labelledby={billingId} sx={{ p: 3, mb: 3 }}>
          <Typography id={billingId} component="h2" variant="h2" gutterBottom>
            Subscription
          </Typography>
          <Box>
            <RouterLink to={paths.paymentPortal}>Billing</RouterLink>
          </Box>
        </Paper>
      ) : null}
    </>
  );
}
