import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type Group, parseGroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { ROLES, ROLE_LABEL, type Role, isRole } from '@patientsim/domain/roles/roles';
import type { UserDetails } from '@patientsim/domain/users/users.schemas';
import { useId, useState } from 'react';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useMoveUser } from '../api/move-user';
import { OrganizationSearchField } from './organization-search-field';

/** No organisation left: the person only joins the new one. */
const NONE = '';

/**
 * Changes a person's organisation (only here, spec section 6): out of one of their organisations
 * (archived there, as a removal), into another with a role; then a confirmation that says so.
 */
export function MoveUserDialog({
  details,
  onClose,
  onMoved,
}: {
  details: UserDetails;
  onClose: () => void;
  onMoved: (message: string) => void;
}) {
  const titleId = useId();
  const move = useMoveUser();
  const organisations = details.memberships.filter((row) => row.removed_at === null && !parseGroupMetadata(row.group)?.parent);
  // A key owner cannot leave their organisation: another one is offered first.
  const [fromOrgId, setFromOrgId] = useState(organisations.find((row) => !row.key_owner)?.group._id ?? NONE);
  const from = organisations.find((row) => row.group._id === fromOrgId) ?? null;
  const [target, setTarget] = useState<Group | null>(null);
  const [role, setRole] = useState<Role>(from?.role ?? details.user.role);
  const [isConfirming, setIsConfirming] = useState(false);
  const name = [details.user.given_name, details.user.family_name].filter(Boolean).join(' ') || details.user.email;
  const close = () => {
    if (!move.isPending) onClose();
  };
  return (
    <Dialog open onClose={close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Change organization</DialogTitle>
      {move.isPending ? <LinearProgress aria-label="Changing the organization" /> : null}
      <DialogContent>
        {isConfirming && target ? (
          <DialogContentText>
            {from
              ? `Move ${name} from ${from.group.name} to ${target.name} as ${ROLE_LABEL[role]}? They are archived in ${from.group.name}, leave its groups and are signed out.`
              : `Add ${name} to ${target.name} as ${ROLE_LABEL[role]}? They are signed out.`}
          </DialogContentText>
        ) : (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              select
              label="From organization"
              value={fromOrgId}
              onChange={(event) => {
                setFromOrgId(event.target.value);
                const next = organisations.find((row) => row.group._id === event.target.value);
                setRole(next?.role ?? details.user.role);
              }}
            >
              {organisations.map((row) => (
                <MenuItem key={row.group._id} value={row.group._id} disabled={row.key_owner}>
                  {row.key_owner ? `${row.group.name} (key owner: choose another key owner first)` : row.group.name}
                </MenuItem>
              ))}
              <MenuItem value={NONE}>None (keep every current organization)</MenuItem>
            </TextField>
            <OrganizationSearchField
              label="To organization"
              value={target}
              onChange={setTarget}
              excludedIds={organisations.map((row) => row.group._id)}
            />
            <TextField
              select
              label="Role there"
              value={role}
              onChange={(event) => {
                if (isRole(event.target.value)) setRole(event.target.value);
              }}
            >
              {ROLES.map((option) => (
                <MenuItem key={option} value={option}>
                  {ROLE_LABEL[option]}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
        )}
        {move.error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(move.error, UNKNOWN_ERROR_MESSAGE)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={move.isPending}>
          Cancel
        </Button>
        {isConfirming && target ? (
          <Button
            variant="contained"
            loading={move.isPending}
            onClick={() =>
              move.mutate(
                { userId: details.user.user_id, orgId: target._id, role, ...(from ? { fromOrgId: from.group._id } : {}) },
                { onSuccess: () => onMoved(`${name} is now a member of ${target.name}.`) },
              )
            }
          >
            Move
          </Button>
        ) : (
          <Button variant="contained" disabled={!target || from?.key_owner === true} onClick={() => setIsConfirming(true)}>
            Next
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
