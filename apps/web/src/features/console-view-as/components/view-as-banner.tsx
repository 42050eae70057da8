import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { renewSession } from '../../../lib/id-token';
import { useLogout } from '../../../lib/logout';
import { readLoginResult } from '../../../lib/session-store';
import { useCurrentUser } from '../../../lib/use-session';
import { endViewAs } from '../../../lib/view-as-session';

/**
 * Shown on every screen of a View-As-User session: whose view this is, and the way back. Ending it
 * ends the view on the server (its token is refused from then on), then the super admin's own
 * session takes over again and the View As User screen opens; without a session to return to, this
 * is a logout.
 */
export function ViewAsBanner() {
  const user = useCurrentUser();
  const logout = useLogout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isEnding, setIsEnding] = useState(false);
  if (!user?.isImpersonated) return null;

  const endView = async () => {
    setIsEnding(true);
    const stored = readLoginResult();
    // Already ended (expired, or ended in another tab): there is nothing left to end.
    if (stored) await endViewAs(stored.idToken).catch(() => undefined);
    try {
      await renewSession();
    } catch {
      await logout();
      return;
    }
    queryClient.removeQueries();
    setIsEnding(false);
    await navigate(paths.accessSkeleton);
  };

  const organisation = user.activeOrg ? ` in ${user.activeOrg.name}` : '';
  return (
    <Alert
      severity="warning"
      variant="filled"
      role="status"
      sx={{ mb: 3, alignItems: 'center', color: 'common.black', bgcolor: '#ffb300' }}
      action={
        <Button color="inherit" variant="outlined" size="small" disabled={isEnding} onClick={() => void endView()}>
          End session
        </Button>
      }
    >
      You are viewing PatientSim as {user.displayName} ({user.email}){organisation}.
    </Alert>
  );
}
