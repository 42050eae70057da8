import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { replyMessageOr } from '../../../lib/api-client';
import { useResendInvite } from '../api/resend-invite';
import { useRevokeInvite } from '../api/revoke-invite';

/**
 * Resend and Revoke for the pending-invitation rows of the org users table: `menuItems` go into a
 * row's action menu; `dialogs` (the revoke confirmation and the success message) render once,
 * outside the menu, since the menu closes when an item is chosen; `failure` is a refused resend,
 * shown inline above the table. A refused revoke stays in its confirmation.
 */
export function usePendingInviteActions(orgId: string) {
  const resend = useResendInvite(orgId);
  const revoke = useRevokeInvite(orgId);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const menuItems = (email: string, closeMenu: () => void) => [
    <MenuItem
      key="resend"
      onClick={() => {
        closeMenu();
        resend.mutate(email, { onSuccess: () => setNotice(`The invitation to ${email} was sent again.`) });
      }}
    >
      Resend
    </MenuItem>,
    <MenuItem
      key="revoke"
      onClick={() => {
        closeMenu();
        revoke.reset();
        setRevoking(email);
      }}
    >
      Revoke
    </MenuItem>,
  ];

  const dialogs = (
    <>
      <ConfirmDialog
        isOpen={revoking !== null}
        title="Revoke invitation"
        confirmLabel="Revoke"
        isPending={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          if (!revoking) return;
          revoke.mutate(revoking, {
            onSuccess: () => {
              setNotice(`The invitation to ${revoking} was revoked.`);
              setRevoking(null);
            },
          });
        }}
      >
        {`Revoke the invitation to ${revoking ?? ''}? The link in their invitation email will stop working.`}
        {revoke.error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {replyMessageOr(revoke.error, 'Unknown error')}
          </Alert>
        ) : null}
      </ConfirmDialog>
      <Snackbar open={notice !== null} autoHideDuration={4000} onClose={() => setNotice(null)} message={notice ?? ''} />
    </>
  );

  const failure = resend.error ? (
    <Alert severity="error" onClose={() => resend.reset()}>
      {replyMessageOr(resend.error, 'Unknown error')}
    </Alert>
  ) : null;

  return { menuItems, dialogs, failure };
}
