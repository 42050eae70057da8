import Paper from '@mui/material/Paper';
import { ScreenHeader } from '../../../components/screen-header';
import { ChangePasswordForm } from '../components/change-password-form';

/** /account/change-password. */
export function ChangePasswordRoute() {
  return (
    <>
      <ScreenHeader title="Change password" />
      <Paper variant="outlined" sx={{ p: 3 }}>
        <ChangePasswordForm />
      </Paper>
    </>
  );
}
