import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import { Outlet } from 'react-router';
import { ViewAsBanner } from '../../features/view-as/components/view-as-banner';
import { SessionLifecycle } from '../session-lifecycle';
import { NavBar } from './nav-bar';

/** Signed-in screens before the app proper (org selection, e-mail verification): nav bar, no side nav. */
export function SignedInLayout() {
  return (
    <>
      <SessionLifecycle />
      <NavBar />
      <Box component="main" sx={{ py: { xs: 3, sm: 6 } }}>
        <Container maxWidth="sm">
          <ViewAsBanner />
          <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
            <Outlet />
          </Paper>
        </Container>
      </Box>
    </>
  );
}
