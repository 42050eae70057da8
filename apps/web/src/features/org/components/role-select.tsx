import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { canAssignRole, isRole, ROLE_LABEL, ROLES, type Role } from '@patientsim/domain/roles/roles';
import { useId } from 'react';
import { VisuallyHidden } from '../../../components/visually-hidden';

/** The roles an inviter may hand out: up to and including their own rank (spec section 6). */
export function assignableRoles(inviterRole: Role): Role[] {
  return ROLES.filter((role) => canAssignRole(inviterRole, role));
}

/** A labelled role choice limited to the inviter's rank. */
export function RoleSelect({
  label,
  hiddenLabelSuffix,
  value,
  inviterRole,
  isDisabled = false,
  onChange,
  size = 'medium',
}: {
  label: string;
  /** Read after the label by assistive technology only (the row's address), so the shown label stays short enough to fit. */
  hiddenLabelSuffix?: string;
  value: Role;
  inviterRole: Role;
  isDisabled?: boolean;
  onChange: (role: Role) => void;
  size?: 'small' | 'medium';
}) {
  const labelId = useId();
  return (
    <FormControl size={size} sx={{ minWidth: 160 }} disabled={isDisabled}>
      <InputLabel id={labelId}>
        {label}
        {hiddenLabelSuffix ? (
          <>
            {' '}
            <VisuallyHidden>{hiddenLabelSuffix}</VisuallyHidden>
          </>
        ) : null}
      </InputLabel>
      <Select
        labelId={labelId}
        label={label}
        value={value}
        onChange={(event) => {
          if (isRole(event.target.value)) onChange(event.target.value);
        }}
      >
        {assignableRoles(inviterRole).map((role) => (
          <MenuItem key={role} value={role}>
            {ROLE_LABEL[role]}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
