import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { ROLE_LABEL } from '@patientsim/domain/roles/roles';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import type { Organisation } from '../../../lib/current-user';
import { useKeyOwner } from '../api/get-key-owner';
import { useLeaveOrganisation } from '../api/leave-organisation';

/** Verbatim from the spec (sections 4 and 8). */
export const KEY_OWNER_CANNOT_LEAVE_TOOLTIP = ERROR_CODES.KEY_OWNER_CANNOT_LEAVE.message;
export const LEAVE_CONFIRM = 'Are you sure you want to leave?';

export function membershipHeading(count: number): string {
  return `You are currently a member of ${count} organization(s)`;
}

function LeaveButton({
  orgId,
  userId,
  describedBy,
  isBusy,
  onLeave,
}: {
  orgId: string;
  userId: string;
  describedBy: string;
  isBusy: boolean;
  onLeave: () => void;
}) {
  const keyOwner = useKeyOwner(orgId);
  const isKeyOwner = keyOwner.data?.user_id === userId;
  const button = (
    <Button
      variant="outlined"
      color="error"
      aria-describedby={describedBy}
      // Disabled until the key owner is known: busy, not refused.
      aria-busy={keyOwner.isPending}
      disabled={isBusy || keyOwner.isPending || isKeyOwner}
      onClick={onLeave}
    >
      Leave
    </Button>
  );
  if (!isKeyOwner) return button;
  // A disabled button gets no pointer or focus events: the wrapper carries the tooltip.
  return (
    <Tooltip title={KEY_OWNER_CANNOT_LEAVE_TOOLTIP} describeChild>
      <span tabIndex={0}>{button}</span>
    </Tooltip>
  );
}

/** 'You are currently a member of N organization(s)', each with Leave (spec sections 2 and 4). */
export function OrganisationMemberships({
  userId,
  organisations,
  activeOrgId,
}: {
  userId: string;
  organisations: readonly Organisation[];
  activeOrgId: string | null;
}) {
  const leave = useLeaveOrganisation();
  const [toLeave, setToLeave] = useState<Organisation | null>(null);
  const headingId = useId();
  const nameIdPrefix = useId();

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 3, mb: 3 }}>
      <Typography id={headingId} component="h2" variant="h2">
        {membershipHeading(organisations.length)}
      </Typography>
      {leave.isError ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(leave.error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
      ) : null}
      <List>
        {organisations.map((org) => {
          const nameId = `${nameIdPrefix}-${org.id}`;
          return (
            <ListItem key={org.id} disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
              <ListItemText primary={<span id={nameId}>{org.name}</span>} secondary={ROLE_LABEL[org.role]} />
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                {org.id === activeOrgId ? <Chip label="Current" color="primary" size="small" /> : null}
                {org.isInactive ? <Chip label="Inactive" size="small" /> : null}
                <LeaveButton
                  orgId={org.id}
                  userId={userId}
                  describedBy={nameId}
                  isBusy={leave.isPending}
                  onLeave={() => setToLeave(org)}
                />
              </Box>
            </ListItem>
          );
        })}
      </List>
      <ConfirmDialog
        isOpen={toLeave !== null}
        title={toLeave ? `Leave ${toLeave.name}` : 'Leave'}
        confirmLabel="Leave"
        isPending={leave.isPending}
        onCancel={() => setToLeave(null)}
        onConfirm={() => {
          if (toLeave) leave.mutate({ orgId: toLeave.id, userId }, { onSettled: () => setToLeave(null) });
        }}
      >
        {LEAVE_CONFIRM}
      </ConfirmDialog>
    </Paper>
  );
}
