import Box from '@mui/material/Box';
import { LoadingState } from '../../components/loading-state';

/** Shown while the first route of the session loads. */
export function LoadingScreen() {
  return (
    <Box component="main" sx={{ display: 'flex', justifyContent: 'center', pt: 12 }}>
      <LoadingState label="Loading..." />
    </Box>
  );
}
