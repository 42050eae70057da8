import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Invite } from '@patientsim/domain/invitations/invitation.schemas';
import { ROLE_LABEL, isRole } from '@patientsim/domain/roles/roles';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadingState } from '../../../components/loading-state';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, replyMessageOr } from '../../../lib/api-client';
import { ACCEPT_INVITE_FALLBACK_ERROR, useAcceptInvite } from '../api/accept-invite';
import { DISMISS_INVITE_CONFIRM, useDismissInvite } from '../api/dismiss-invite';
import { useUserInvites } from '../api/get-user-invites';
import { PendingInvitationNotice } from './pending-invitation-notice';

function roleLabel(role: string): string {
  return isRole(role) ? ROLE_LABEL[role] : role;
}

function InvitationItem({
  invite,
  isAccepting,
  isBusy,
  onAccept,
  onDismiss,
}: {
  invite: Invite;
  isAccepting: boolean;
  isBusy: boolean;
  onAccept: () => void;
  onDismiss: () => void;
}) {
  const nameId = useId();
  return (
    <ListItem disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
      <ListItemText
        primary={<span id={nameId}>{invite.org_name}</span>}
        secondary={`Invited as ${roleLabel(invite.role)}`}
        sx={{ flex: '1 1 200px' }}
      />
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button variant="contained" aria-describedby={nameId} loading={isAccepting} disabled={isBusy} onClick={onAccept}>
          Accept
        </Button>
        <Button variant="outlined" aria-describedby={nameId} disabled={isBusy} onClick={onDismiss}>
          Dismiss
        </Button>
      </Box>
    </ListItem>
  );
}

/** The profile's pending invitations, each with Accept and Dismiss (spec sections 2 and 4). */
export function PendingInvitations({ userId, email }: { userId: string; email: string }) {
  const invites = useUserInvites(userId);
  const accept = useAcceptInvite();
  const dismiss = useDismissInvite();
  const [toDismiss, setToDismiss] = useState<Invite | null>(null);
  const headingId = useId();

  let content;
  if (invites.isPending) {
    content = <LoadingState label="Loading invitations..." />;
  } else if (invites.isError) {
    content = <Alert severity="error">{errorMessage(invites.error, UNKNOWN_ERROR_MESSAGE)}</Alert>;
  } else if (invites.data.length === 0) {
    content = <Typography color="text.secondary">You have no pending invitations.</Typography>;
  } else {
    const isBusy = accept.isPending || dismiss.isPending;
    content = (
      <>
        <PendingInvitationNotice email={email} />
        {accept.isError ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {replyMessageOr(accept.error, ACCEPT_INVITE_FALLBACK_ERROR)}
          </Alert>
        ) : null}
        {dismiss.isError ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {errorMessage(dismiss.error, UNKNOWN_ERROR_MESSAGE)}
          </Alert>
        ) : null}
        <List>
          {invites.data.map((invite) => (
            <InvitationItem
              key={invite._id}
              invite={invite}
              isAccepting={accept.isPending && accept.variables.inviteId === invite._id}
              isBusy={isBusy}
              onAccept={() => accept.mutate({ inviteId: invite._id, email })}
              onDismiss={() => setToDismiss(invite)}
            />
          ))}
        </List>
      </>
    );
  }

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 3, mb: 3 }}>
      <Typography id={headingId} component="h2" variant="h2" gutterBottom>
        Pending invitations
      </Typography>
      {content}
      <ConfirmDialog
        isOpen={toDismiss !== null}
        title="Dismiss invitation"
        confirmLabel="Dismiss"
        isPending={dismiss.isPending}
        onCancel={() => setToDismiss(null)}
        onConfirm={() => {
          if (toDismiss) dismiss.mutate(toDismiss._id, { onSettled: () => setToDismiss(null) });
        }}
      >
        {DISMISS_INVITE_CONFIRM}
      </ConfirmDialog>
    </Paper>
  );
}
