import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { displayGroupName, parseGroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { useParams } from 'react-router';
import { RouterLink } from '../../../components/router-link';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/use-session';
import { useGroup } from '../api/get-group';
import { useGroupAdmin } from '../api/get-group-admin';
import { GroupMembers } from '../components/group-members';

/** /groups/{orgId} (route name group-details): one group, its group admin and its members. */
export function GroupDetailsRoute() {
  const { orgId: groupId = '' } = useParams();
  const user = useCurrentUser();
  const group = useGroup(groupId);
  const admin = useGroupAdmin(groupId);
  const metadata = group.data ? parseGroupMetadata(group.data) : null;
  const adminName =
    (admin.data && ([admin.data.given_name, admin.data.family_name].filter(Boolean).join(' ') || admin.data.email)) || '—';
  const name = group.data ? displayGroupName(group.data.name) : '';
  const canEdit = Boolean(
    user && (hasPermission(user.role, 'org:groups:manage') || (metadata?.ownerId && metadata.ownerId === user.id)),
  );
  return (
    <>
      <ScreenHeader title="Group details" />
      <RouterLink to={paths.orgGroups}>Back to groups</RouterLink>
      <Box sx={{ mt: 2 }}>
        {group.isError ? (
          <Alert severity="error">An error occurred: {errorMessage(group.error, 'Unknown error')}</Alert>
        ) : group.isPending ? (
          <Skeleton width={240} height={40} />
        ) : (
          <>
            <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 1, m: 0 }}>
              <Typography component="dt" sx={{ fontWeight: 600 }}>
                Group
              </Typography>
              <Typography component="dd" sx={{ m: 0 }}>
                {name}
              </Typography>
              <Typography component="dt" sx={{ fontWeight: 600 }}>
                Members
              </Typography>
              <Typography component="dd" sx={{ m: 0 }}>
                {metadata?.memberCount ?? 0}
              </Typography>
              <Typography component="dt" sx={{ fontWeight: 600 }}>
                Group admin
              </Typography>
              <Typography component="dd" sx={{ m: 0 }}>
                {admin.isPending ? <Skeleton width={120} /> : adminName}
              </Typography>
            </Box>
            {metadata?.parent ? (
              <GroupMembers groupId={groupId} orgId={metadata.parent} groupName={name} canEdit={canEdit} />
            ) : null}
          </>
        )}
      </Box>
    </>
  );
}
