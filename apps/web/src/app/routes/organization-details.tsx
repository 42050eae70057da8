import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useLocation, useParams } from 'react-router';
import { ScreenHeader } from '../../components/screen-header';
import { GroupsPanel } from '../../features/groups/components/groups-panel';
import { OrganisationOverview } from '../../features/org/components/organisation-overview';
import { OrgUsersTable } from '../../features/org/components/org-users-table';
import { useCurrentUser } from '../../lib/use-session';

function noticeOf(state: unknown): string | null {
  return typeof state === 'object' && state !== null && 'notice' in state && typeof state.notice === 'string'
    ? state.notice
    : null;
}

/**
 * /access/organizations/{orgId} (route name organization-details): the provider's view of one
 * organisation: its profile with product type, flags, seats, status and key owner, its members and
 * pending invitations, and its groups.
 */
export function OrganizationDetailsRoute() {
  const { orgId = '' } = useParams();
  const location = useLocation();
  const user = useCurrentUser();
  if (!user) return null;
  const notice = noticeOf(location.state);

  return (
    <>
      <ScreenHeader title="Organization details" />
      {notice ? (
        <Alert severity="success" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      ) : null}
      <OrganisationOverview orgId={orgId} viewer={user}>
        <Box component="section" aria-labelledby="org-members-title" sx={{ mt: 4 }}>
          <Typography id="org-members-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
            Members and pending invitations
          </Typography>
          <OrgUsersTable key={orgId} orgId={orgId} variant="all" actorRole={user.role} />
        </Box>
        <Box component="section" aria-labelledby="org-groups-title" sx={{ mt: 4 }}>
          <Typography id="org-groups-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
            Groups
          </Typography>
          <GroupsPanel user={user} orgId={orgId} />
        </Box>
      </OrganisationOverview>
    </>
  );
}
