import Alert from '@mui/material/Alert';

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
