import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useEffect, useRef } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { LoadingState } from '../../../components/loading-state';
import { RouterLink } from '../../../components/router-link';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../config/paths';
import { replyMessageOr } from '../../../lib/api-client';
import { useLogout } from '../../../lib/logout';
import { ACCEPT_INVITE_FALLBACK_ERROR } from '../api/accept-invite';
import { useFollowInvitationLink } from '../api/follow-invitation-link';

export const MISSING_INVITE_TOKEN_MESSAGE = 'Missing invite token';

/** Signed in as someone else: log out, then sign in as the invited address. */
function LogOutThenGo({ to }: { to: string }) {
  const logout = useLogout();
  const hasStarted = useRef(false);
  useEffect(() => {
    if (hasStarted.current) return;
    hasStarted.current = true;
    void logout({ to });
  }, [logout, to]);
  return <LoadingState label="Signing you out..." />;
}

function AcceptInvitation({ token }: { token: string }) {
  const outcome = useFollowInvitationLink(token);

  if (outcome.isPending) return <LoadingState label="Accepting your invitation..." />;
  if (outcome.isError) {
    return (
      <>
        <Alert severity="error">{replyMessageOr(outcome.error, ACCEPT_INVITE_FALLBACK_ERROR)}</Alert>
        <Box sx={{ mt: 3, display: 'flex', gap: 3, flexWrap: 'wrap' }}>
          <RouterLink to={paths.profile}>Back to account</RouterLink>
          <RouterLink to={paths.login}>Back to login</RouterLink>
        </Box>
      </>
    );
  }
  const result = outcome.data;
  switch (result.kind) {
    case 'signup':
      return <Navigate to={result.to} replace />;
    case 'login':
      return result.mustLogOut ? <LogOutThenGo to={result.to} /> : <Navigate to={result.to} replace />;
    case 'accepted':
      return <Navigate to={paths.profile} replace />;
  }
}

/** /accept-invite?token: the link of an invitation e-mail (decision 8). */
export function AcceptInviteRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  return (
    <>
      <ScreenHeader title="Accept invitation" />
      {token ? <AcceptInvitation token={token} /> : <Alert severity="error">{MISSING_INVITE_TOKEN_MESSAGE}</Alert>}
    </>
  );
}
