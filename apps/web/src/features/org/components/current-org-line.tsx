import Typography from '@mui/material/Typography';
import { useCurrentUser } from '../../../lib/use-session';

/** The organisation an org management page is about. */
export function CurrentOrgLine() {
  const user = useCurrentUser();
  return (
    <Typography sx={{ mb: 2 }}>
      Organization: <strong>{user?.activeOrg?.name ?? 'none'}</strong>
    </Typography>
  );
}
