import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Toolbar from '@mui/material/Toolbar';
import { useId, useState } from 'react';
import { Outlet } from 'react-router';
import { useCurrentUser } from '../../lib/use-session';
import { SessionLifecycle } from '../session-lifecycle';
import { NavBar } from './nav-bar';
import { SideNavList } from './side-nav';

const DRAWER_WIDTH = 256;

/** The signed-in app: nav bar, side nav and the page. */
export function AppShell() {
  const user = useCurrentUser();
  const [isMobileOpen, setIsMobileOpen] = useState(false);
  const navigationId = useId();

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <SessionLifecycle />
      <NavBar onOpenNavigation={() => setIsMobileOpen(true)} isNavigationOpen={isMobileOpen} navigationId={navigationId} />
      <Box sx={{ display: 'flex', flexGrow: 1 }}>
        {user ? (
          <>
            <Drawer
              variant="temporary"
              open={isMobileOpen}
              onClose={() => setIsMobileOpen(false)}
              sx={{ display: { xs: 'block', md: 'none' }, '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
            >
              <Toolbar />
              <Box component="nav" id={navigationId} aria-label="Main">
                <SideNavList user={user} onNavigate={() => setIsMobileOpen(false)} />
              </Box>
            </Drawer>
            <Drawer
              variant="permanent"
              sx={{
                display: { xs: 'none', md: 'block' },
                width: DRAWER_WIDTH,
                flexShrink: 0,
                '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
              }}
            >
              <Toolbar />
              <Box component="nav" aria-label="Main">
                <SideNavList user={user} />
              </Box>
            </Drawer>
          </>
        ) : null}
        <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 4 } }}>
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}
