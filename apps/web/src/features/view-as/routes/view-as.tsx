import Typography from '@mui/material/Typography';
import { ScreenHeader } from '../../../components/screen-header';
import { ViewAsForm } from '../components/view-as-form';

/** /access/skeleton: Skeleton Key, View As User (spec section 2). */
export function ViewAsRoute() {
  return (
    <>
      <ScreenHeader title="View As User" />
      <Typography sx={{ mb: 3, maxWidth: 640 }}>
        See the product exactly as one of your customers does. The view lasts at most an hour, changes nothing on their behalf
        (changes to their account and organisation are refused), and its start and end are recorded in the audit trail.
      </Typography>
      <ViewAsForm />
    </>
  );
}
