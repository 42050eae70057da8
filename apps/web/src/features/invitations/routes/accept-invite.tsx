import Alert from '@mui/material/Alert';
import { useSearchParams } from 'react-router';
import { ScreenHeader } from '../../../components/screen-header';

export const MISSING_INVITE_TOKEN_MESSAGE = 'Missing invite token';

/** /accept-invite?token. */
export function AcceptInviteRoute() {
  const [searchParams] = useSearchParams();
  return (
    <>
      <ScreenHeader title="Accept invitation" />
      {searchParams.get('token') ? null : <Alert severity="error">{MISSING_INVITE_TOKEN_MESSAGE}</Alert>}
    </>
  );
}
