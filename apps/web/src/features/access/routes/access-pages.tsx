import Typography from '@mui/material/Typography';
import { displayGroupName } from '@patientsim/domain/groups/group.schemas';
import { useParams } from 'react-router';
import { ScreenHeader } from '../../../components/screen-header';
import { useSession } from '../../../lib/use-session';

/** /access/organizations. */
export function OrganizationsRoute() {
  return <ScreenHeader title="Organizations" />;
}

/** /access/organizations/{orgId} (route name organization-details). */
export function OrganizationDetailsRoute() {
  const { orgId } = useParams();
  const { groups } = useSession();
  const group = groups.find((candidate) => candidate._id === orgId);
  return (
    <>
      <ScreenHeader title="Organization details" />
      {group ? (
        <Typography>
          Organization: <strong>{displayGroupName(group.name)}</strong>
        </Typography>
      ) : null}
    </>
  );
}

/** /access/users. */
export function AccessUsersRoute() {
  return <ScreenHeader title="Users" />;
}

/** /access/cases. */
export function AccessCasesRoute() {
  return <ScreenHeader title="Cases" />;
}

/** /access/skeleton: Skeleton Key (View As User). */
export function SkeletonKeyRoute() {
  return <ScreenHeader title="View As User" />;
}

/** /access/templates. */
export function TemplatesRoute() {
  return <ScreenHeader title="Templates" />;
}

/** /access/notifications. */
export function AccessNotificationsRoute() {
  return <ScreenHeader title="Notifications" />;
}
