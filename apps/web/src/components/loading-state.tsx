import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';

/** A spinner with a visible, announced label. */
export function LoadingState({ label }: { label: string }) {
  return (
    <Box role="status" aria-live="polite" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 3 }}>
      <CircularProgress size={28} aria-hidden="true" />
      <Typography>{label}</Typography>
    </Box>
  );
}
