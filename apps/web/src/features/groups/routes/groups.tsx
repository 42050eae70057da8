import Typography from '@mui/material/Typography';
import { ScreenHeader } from '../../../components/screen-header';
import { useCurrentUser } from '../../../lib/use-session';
import { GroupsPanel } from '../components/groups-panel';

/** /groups and /org/groups: the groups of the user's organisation (spec section 2). */
export function GroupsRoute() {
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <>
      <ScreenHeader title="Groups" />
      <Typography sx={{ mb: 2 }}>
        Organization: <strong>{user.activeOrg?.name ?? 'none'}</strong>
      </Typography>
      <GroupsPanel user={user} />
    </>
  );
}
