import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { renewSession } from '../../../lib/id-token';
import { useLogout } from '../../../lib/logout';
import { isViewAsResult } from '../../../lib/current-user';
import { readLoginResult } from '../../../lib/session-store';
import { useCurrentUser } from '../../../lib/use-session';
import { endViewAs } from '../../../lib/view-as-session';

/**
 * Shown on every screen of a View-As-User session: whose view this is, and the way back. Ending it
 * brings the super admin's own session back, ends the view on the server (its token is refused
 * from then on) and opens the View As User screen; without a session to return to, this is a
 * logout.
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
    // The super admin's own session comes back first: a request of the view answered after its
    // end is refused, and while the view's token was still the stored one that refusal logged out.
    try {
      await renewSession();
    } catch {
      // No session to return to: logout ends the view too.
      await logout();
      return;
    }
    // Already ended (expired, or ended in another tab): there is nothing left to end.
    if (stored && isViewAsResult(stored)) await endViewAs(stored.idToken).catch(() => undefined);
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
