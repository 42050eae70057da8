import Typography from '@mui/material/Typography';
import { displayGroupName } from '@patientsim/domain/groups/group.schemas';
import { useParams } from 'react-router';
import { ScreenHeader } from '../../../components/screen-header';
import { useSession } from '../../../lib/use-session';

/** /groups/{orgId} (route name group-details). */
export function GroupDetailsRoute() {
  const { orgId } = useParams();
  const { groups } = useSession();
  const group = groups.find((candidate) => candidate._id === orgId);
  return (
    <>
      <ScreenHeader title="Group details" />
      {group ? (
        <Typography>
          Group: <strong>{displayGroupName(group.name)}</strong>
        </Typography>
      ) : null}
    </>
  );
}
