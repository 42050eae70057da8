import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';

/** Every route: the page plus a progress bar while the next route loads. */
export function RootLayout() {
  const navigation = useNavigation();
  return (
    <>
      {navigation.state === 'loading' ? (
        <Box sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (theme) => theme.zIndex.tooltip }}>
          <LinearProgress aria-label="Loading page" />
        </Box>
      ) : null}
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
