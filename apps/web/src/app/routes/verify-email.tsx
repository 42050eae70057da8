import { VerifyEmailRoute } from '../../features/auth/routes/verify-email';
import { PendingInvitationNoticeFor } from '../../features/invitations/components/pending-invitation-notice';
import { useCurrentUser } from '../../lib/use-session';

/** /verify with the pending-invitation notice (spec section 8). */
export function VerifyEmailPage() {
  const user = useCurrentUser();
  return <VerifyEmailRoute notice={user ? <PendingInvitationNoticeFor email={user.email} /> : null} />;
}
