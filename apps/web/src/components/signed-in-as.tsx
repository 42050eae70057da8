import Typography from '@mui/material/Typography';
import { useCurrentUser } from '../lib/use-session';

/** 'Signed in as …' line under a page title. */
export function SignedInAs() {
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <Typography color="text.secondary" sx={{ mb: 3 }}>
      Signed in as {user.displayName} ({user.email})
    </Typography>
  );
}
