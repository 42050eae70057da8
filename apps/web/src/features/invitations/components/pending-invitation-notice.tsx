import Alert from '@mui/material/Alert';
import { usePendingInvites } from '../api/get-pending-invites';

/** Verbatim from the spec (section 8), {email} being the signed-in user's address. */
export function pendingInvitationMessage(email: string): string {
  return `You have a pending invitation to ${email}. Please follow the link in your invite email to accept it.`;
}

/** The pending-invitation notice. */
export function PendingInvitationNotice({ email }: { email: string }) {
  return (
    <Alert severity="info" role="status" sx={{ mb: 2 }}>
      {pendingInvitationMessage(email)}
    </Alert>
  );
}

/** The notice for screens that have no invitation list of their own (the verify screen): asks the server. */
export function PendingInvitationNoticeFor({ email }: { email: string }) {
  const pending = usePendingInvites(email);
  return pending.data && pending.data.length > 0 ? <PendingInvitationNotice email={email} /> : null;
}
