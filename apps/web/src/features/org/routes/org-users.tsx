import type { OrgUsersVariant } from '@patientsim/domain/users/org-users.schemas';
import { ScreenHeader } from '../../../components/screen-header';
import { useCurrentUser } from '../../../lib/use-session';
import Box from '@mui/material/Box';
import { CurrentOrgLine } from '../components/current-org-line';
import { InviteButtons } from '../components/invite-buttons';
import { OrgUsersTable } from '../components/org-users-table';

/** The org users page in its three variants (spec section 2), for the user's active organisation. */
function OrgUsersPage({ title, variant }: { title: string; variant: OrgUsersVariant }) {
  const user = useCurrentUser();
  const org = user?.activeOrg ?? null;
  return (
    <>
      <ScreenHeader title={title} />
      <CurrentOrgLine />
      {variant !== 'archived' ? (
        // Shown to those who may invite (admins); subscribed invites skip the seat check.
        <Box sx={{ my: 2 }}>
          <InviteButtons isSubscribed={variant === 'subscribed'} />
        </Box>
      ) : null}
      {org && user ? (
        // A new organisation or variant starts on page 1 with an empty search.
        <OrgUsersTable key={`${org.id}:${variant}`} orgId={org.id} variant={variant} actorRole={user.role} />
      ) : null}
    </>
  );
}

/** /org/invite: the normal variant. */
export function OrgUsersRoute() {
  return <OrgUsersPage title="Users" variant="all" />;
}

/** /org/invite-subscribed: the subscribed variant. */
export function SubscribedUsersRoute() {
  return <OrgUsersPage title="Subscribed Users" variant="subscribed" />;
}

/** /org/archived-users: the archived variant. */
export function ArchivedUsersRoute() {
  return <OrgUsersPage title="Grading Archive" variant="archived" />;
}
