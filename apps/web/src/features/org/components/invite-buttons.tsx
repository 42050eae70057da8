import GroupAddIcon from '@mui/icons-material/GroupAdd';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { type SeatFigures, seatFiguresIn } from '@patientsim/domain/groups/seats';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { useState } from 'react';
import { useCurrentUser } from '../../../lib/use-session';
import { useInviteTarget } from '../api/get-inviter-groups';
import { BulkInviteDialog } from './bulk-invite-dialog';
import { InviteUserDialog } from './invite-user-dialog';
import { FULL_SEATS_TOOLTIP, isAtFullSeats } from './seat-summary';

type OpenDialog = 'single' | 'bulk' | null;

/**
 * The Invite User and Bulk Invite buttons of the org users page, for roles that may invite. In a
 * non-subscribed organisation at or above its seats they stay focusable (aria-disabled) and say why.
 */
export function InviteButtons({ isSubscribed = false }: { isSubscribed?: boolean }) {
  const user = useCurrentUser();
  const orgId = user?.activeOrg?.id ?? null;
  const canInvite = user !== null && hasPermission(user.role, 'org:invite') && !user.isImpersonated;
  const target = useInviteTarget(canInvite && user && orgId ? { userId: user.id, orgId } : null);
  const [open, setOpen] = useState<OpenDialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  if (!canInvite || !user || !orgId) return null;

  const metadata = target.data?.metadata ?? null;
  // The seat figures the server enforces (decision 0035): subscribed members hold no seat; pending
  // invitations that are not through a subscription keep one. Subscribed invitations skip the check.
  const seatFigures: SeatFigures | null = isSubscribed || !metadata ? null : seatFiguresIn(metadata);
  // Without the figures a seat-taking invitation waits: it must never fall back to a subscribed one.
  const isLoading = target.isPending || (!isSubscribed && seatFigures === null);
  const isFull = seatFigures !== null && isAtFullSeats(seatFigures);
  const isUnavailable = isLoading || isFull;

  const button = (label: string, icon: React.ReactNode, dialog: Exclude<OpenDialog, null>) => {
    const element = (
      <Button
        variant={dialog === 'single' ? 'contained' : 'outlined'}
        startIcon={icon}
        aria-disabled={isUnavailable || undefined}
        onClick={() => {
          if (!isUnavailable) setOpen(dialog);
        }}
        sx={isUnavailable ? { opacity: 0.6, cursor: 'not-allowed' } : undefined}
      >
        {label}
      </Button>
    );
    return isFull ? (
      <Tooltip title={FULL_SEATS_TOOLTIP} describeChild>
        {element}
      </Tooltip>
    ) : (
      element
    );
  };

  return (
    <>
      <Stack direction="row" spacing={1}>
        {button('Invite User', <PersonAddIcon />, 'single')}
        {button('Bulk Invite', <GroupAddIcon />, 'bulk')}
      </Stack>
      {open === 'single' && (
        <InviteUserDialog
          isOpen
          onClose={() => setOpen(null)}
          orgId={orgId}
          inviterRole={user.role}
          figures={seatFigures}
          isSubscribed={isSubscribed}
          subgroups={target.data?.subgroups ?? []}
          onInvited={setNotice}
        />
      )}
      {open === 'bulk' && (
        <BulkInviteDialog
          isOpen
          onClose={() => setOpen(null)}
          orgId={orgId}
          inviterRole={user.role}
          figures={seatFigures}
          isSubscribed={isSubscribed}
          onInvited={setNotice}
        />
      )}
      <Snackbar open={notice !== null} autoHideDuration={4000} onClose={() => setNotice(null)} message={notice ?? ''} />
    </>
  );
}
