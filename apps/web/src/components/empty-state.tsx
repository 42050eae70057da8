import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Spec section 2: the heading of every empty list. */
export const NOTHING_TO_SHOW = 'Nothing to show';
/** Spec section 2: a list of users with nothing in it, searched or not. */
export const NO_USERS_MESSAGE = 'No users to display';

/**
 * The one empty state of the app's lists and tables: 'Nothing to show' and why. A status, so that a
 * search that empties the list is announced.
 */
export function EmptyState({ message }: { message: string }) {
  return (
    <Box role="status" sx={{ p: 3, textAlign: 'center' }}>
      <Typography variant="h6" component="p">
        {NOTHING_TO_SHOW}
      </Typography>
      <Typography color="text.secondary">{message}</Typography>
    </Box>
  );
}
