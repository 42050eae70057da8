import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, useMemo } from 'react';
import { RouterLink } from '../../components/router-link';
import { ScreenHeader } from '../../components/screen-header';
import { paths } from '../../config/paths';
import { useCurrentUser } from '../../lib/use-session';
import { useStagedRender } from '../../lib/use-staged-render';
import { OrganisationMemberships } from '../../features/account/components/organisation-memberships';
import { PROFILE_FORM_FIELDS, ProfileForm } from '../../features/account/components/profile-form';
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
  // The title first, then the details card (its form set up, still empty), its fields one at a
  // time, then the cards below it one by one (invitations, organisations), each waiting for the one
  // above so that nothing shown moves.
  const shown = useStagedRender(PROFILE_FORM_FIELDS + 3);
  const invitationsStage = PROFILE_FORM_FIELDS + 2;
  // Each part is kept as an element once shown, so that the later stages render only what they add.
  const hasDetails = shown >= 1;
  const shownFields = Math.min(Math.max(shown - 1, 0), PROFILE_FORM_FIELDS);
  const header = useMemo(() => <ScreenHeader title="Profile" />, []);
  const details = useMemo(
    () =>
      user && hasDetails ? (
        <>
          {user.canDownloadScenarioSummary ? <ScenarioSummaryMenu /> : null}
          <Paper variant="outlined" component="section" aria-labelledby={detailsId} sx={{ p: 3, mb: 3 }}>
            <Typography id={detailsId} component="h2" variant="h2">
              Your details
            </Typography>
            <ProfileForm
              userId={user.id}
              saved={{ given_name: user.givenName, family_name: user.familyName, email: user.email }}
              shownFields={shownFields}
            />
          </Paper>
        </>
      ) : null,
    [user, hasDetails, shownFields, detailsId],
  );
  const hasInvitations = shown >= invitationsStage;
  const invitations = useMemo(
    () => (user && hasInvitations ? <PendingInvitations userId={user.id} email={user.email} /> : null),
    [user, hasInvitations],
  );
  if (!user) return null;

  return (
    <>
      {header}
      {details}
      {invitations}
      {shown > invitationsStage ? (
        <>
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
      ) : null}
    </>
  );
}
