import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Divider from '@mui/material/Divider';
import Toolbar from '@mui/material/Toolbar';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useId, useMemo, useState } from 'react';
import { Outlet } from 'react-router';
import { ViewAsBanner } from '../../features/view-as/components/view-as-banner';
import { acceptInvite } from '../../features/invitations/api/accept-invite';
import { dismissInvite } from '../../features/invitations/api/dismiss-invite';
import type { InvitationActions } from '../../features/notifications/components/notification-actions';
import { NotificationsPanel } from '../../features/notifications/components/notifications-panel';
import { useHasOpened } from '../../lib/use-has-opened';
import { useCurrentUser } from '../../lib/use-session';
import { SessionLifecycle } from '../session-lifecycle';
import { NavBar } from './nav-bar';
import { SideNavList } from './side-nav';

const DRAWER_WIDTH = 256;

/** The popup carousel shows nothing until its notifications have loaded: its code loads on demand. */
const PopupNotifications = lazy(() =>
  import('../../features/notifications/components/popup-notifications').then((module) => ({
    default: module.PopupNotifications,
  })),
);

/** The signed-in app: nav bar, side nav and the page. */
export function AppShell() {
  const user = useCurrentUser();
  const [isMobileOpen, setIsMobileOpen] = useState(false);
  // The narrow screens' side nav renders once first opened (closed, it shows nothing).
  const hasMobileOpened = useHasOpened(isMobileOpen);
  // One side nav is rendered: the permanent one on wide screens, the one the menu button opens on
  // narrow ones (hidden with CSS, the other would still render its lists and load notifications).
  const isWide = useMediaQuery(useTheme().breakpoints.up('md'), { noSsr: true });
  const navigationId = useId();
  const queryClient = useQueryClient();
  const email = user?.email ?? null;
  // The popup carousel answers invitations through the invitations area.
  const invitationActions = useMemo<InvitationActions | null>(
    () =>
      email === null
        ? null
        : {
            accept: (inviteId) => acceptInvite({ inviteId, email }),
            dismiss: async (inviteId) => {
              await dismissInvite(inviteId);
              await queryClient.invalidateQueries({ queryKey: ['invitations'] });
            },
          },
    [email, queryClient],
  );

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <SessionLifecycle />
      {user && invitationActions && !user.isImpersonated ? (
        <Suspense fallback={null}>
          <PopupNotifications invitationActions={invitationActions} />
        </Suspense>
      ) : null}
      <NavBar onOpenNavigation={() => setIsMobileOpen(true)} isNavigationOpen={isMobileOpen} navigationId={navigationId} />
      <Box sx={{ display: 'flex', flexGrow: 1 }}>
        {user && !isWide && hasMobileOpened ? (
          <Drawer
            variant="temporary"
            open={isMobileOpen}
            onClose={() => setIsMobileOpen(false)}
            sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
          >
            <Toolbar />
            <Box component="nav" id={navigationId} aria-label="Main">
              <SideNavList user={user} onNavigate={() => setIsMobileOpen(false)} />
            </Box>
            <Divider />
            <NotificationsPanel />
          </Drawer>
        ) : null}
        {user && isWide ? (
          <Drawer
            variant="permanent"
            sx={{
              width: DRAWER_WIDTH,
              flexShrink: 0,
              '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
            }}
          >
            <Toolbar />
            <Box component="nav" aria-label="Main">
              <SideNavList user={user} />
            </Box>
            <Divider />
            <NotificationsPanel />
          </Drawer>
        ) : null}
        <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 4 } }}>
          <ViewAsBanner />
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}
