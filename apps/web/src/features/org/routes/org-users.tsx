import { ScreenHeader } from '../../../components/screen-header';
import { CurrentOrgLine } from '../components/current-org-line';

/** The org users page in its three variants (spec section 2). */
function OrgUsersPage({ title }: { title: string }) {
  return (
    <>
      <ScreenHeader title={title} />
      <CurrentOrgLine />
    </>
  );
}

/** /org/invite: the normal variant. */
export function OrgUsersRoute() {
  return <OrgUsersPage title="Users" />;
}

/** /org/invite-subscribed: the subscribed variant. */
export function SubscribedUsersRoute() {
  return <OrgUsersPage title="Subscribed Users" />;
}

/** /org/archived-users: the archived variant. */
export function ArchivedUsersRoute() {
  return <OrgUsersPage title="Grading Archive" />;
}
