import Cancel from '@mui/icons-material/Cancel';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { displayGroupName } from '@patientsim/domain/groups/group.schemas';
import { ALL_USERS_CATEGORIES, ORG_CATEGORIES } from '@patientsim/domain/notifications/notification.schemas';
import { useState } from 'react';
import { OrganisationSearchField } from '../../../components/organisation-search-field';
import { PersonSearchField, personLabel } from '../../../components/person-search-field';
import { useOrganisationSearch } from '../../../lib/organisation-search';
import { useUserSearch } from '../../../lib/user-search';
import {
  EMPTY_SELECTION,
  type LabelledTarget,
  type PickerSelection,
  addTargets,
  canAdd,
  pickerLocks,
  selectionTargets,
} from './target-picker-state';

export type TargetPickerProps = {
  targets: readonly LabelledTarget[];
  onTargetsChange: (targets: LabelledTarget[]) => void;
  disabled?: boolean;
};

/**
 * The notification target picker (spec section 4): every user by category, an organisation's
 * categories, or one user; 'Add' turns the selection into target chips (duplicates ignored) and
 * clears it.
 */
export function TargetPicker({ targets, onTargetsChange, disabled = false }: TargetPickerProps) {
  const [selection, setSelection] = useState<PickerSelection>(EMPTY_SELECTION);
  // Remounting the search fields clears what was typed in them.
  const [round, setRound] = useState(0);
  const [orgTerm, setOrgTerm] = useState('');
  const [userTerm, setUserTerm] = useState('');
  const organisations = useOrganisationSearch(orgTerm);
  const users = useUserSearch(userTerm);
  const locks = pickerLocks(selection, targets);
  const [pickedOrg, setPickedOrg] = useState<NonNullable<typeof organisations.data>[number] | null>(null);
  const [pickedUser, setPickedUser] = useState<NonNullable<typeof users.data>[number] | null>(null);

  const add = () => {
    onTargetsChange(addTargets(targets, selectionTargets(selection)));
    setSelection(EMPTY_SELECTION);
    setPickedOrg(null);
    setPickedUser(null);
    setOrgTerm('');
    setUserTerm('');
    setRound((value) => value + 1);
  };

  return (
    <Stack spacing={2}>
      <FormControl component="fieldset" disabled={disabled || locks.allUsers}>
        <FormLabel component="legend">All users</FormLabel>
        <FormGroup row>
          {ALL_USERS_CATEGORIES.map((category) => (
            <FormControlLabel
              key={category.id}
              label={category.label}
              control={
                <Checkbox
                  checked={selection.allUsers.includes(category.id)}
                  disabled={disabled || locks.allUsers || locks.isAllUsersCategoryLocked(category.id)}
                  onChange={(event) =>
                    setSelection((current) => ({
                      ...current,
                      allUsers: event.target.checked
                        ? [...current.allUsers, category.id]
                        : current.allUsers.filter((id) => id !== category.id),
                    }))
                  }
                />
              }
            />
          ))}
        </FormGroup>
        <FormHelperText>
          'Everyone' cannot be combined with specific roles. Choosing here turns off organizations and users.
        </FormHelperText>
      </FormControl>

      <FormControl component="fieldset" disabled={disabled || locks.organisation}>
        <FormLabel component="legend">Organization</FormLabel>
        <Stack spacing={1} sx={{ mt: 1 }}>
          <OrganisationSearchField
            key={`org-${round}`}
            label="Organization"
            value={pickedOrg}
            onChange={(next) => {
              setPickedOrg(next);
              setSelection((current) => ({
                ...current,
                organisation: next ? { id: next._id, name: displayGroupName(next.name) } : null,
              }));
            }}
            options={organisations.data ?? []}
            isLoading={organisations.isFetching}
            onSearch={setOrgTerm}
            disabled={disabled || locks.organisation}
          />
          <FormGroup row aria-label="Organization categories">
            {ORG_CATEGORIES.map((category) => (
              <FormControlLabel
                key={category.suffix || 'everyone'}
                label={category.label}
                control={
                  <Checkbox
                    checked={selection.orgCategories.includes(category.suffix)}
                    disabled={disabled || locks.organisation || locks.isOrgCategoryLocked(category.suffix)}
                    onChange={(event) =>
                      setSelection((current) => ({
                        ...current,
                        orgCategories: event.target.checked
                          ? [...current.orgCategories, category.suffix]
                          : current.orgCategories.filter((suffix) => suffix !== category.suffix),
                      }))
                    }
                  />
                }
              />
            ))}
          </FormGroup>
        </Stack>
        <FormHelperText>Pick an organization and who in it. Choosing here turns off all users and the user.</FormHelperText>
      </FormControl>

      <FormControl component="fieldset" disabled={disabled || locks.user}>
        <FormLabel component="legend">User</FormLabel>
        <Stack sx={{ mt: 1 }}>
          <PersonSearchField
            key={`user-${round}`}
            label="User"
            value={pickedUser}
            onChange={(next) => {
              setPickedUser(next);
              setSelection((current) => ({ ...current, user: next ? { id: next.user_id, label: personLabel(next) } : null }));
            }}
            options={users.data ?? []}
            isLoading={users.isFetching}
            onSearch={setUserTerm}
            disabled={disabled || locks.user}
          />
        </Stack>
      </FormControl>

      <div>
        <Button variant="outlined" onClick={add} disabled={disabled || !canAdd(selection)}>
          Add
        </Button>
      </div>

      <Stack spacing={1}>
        <Typography component="h3" variant="subtitle1">
          Targets
        </Typography>
        {targets.length === 0 ? (
          <Typography color="text.secondary">No targets yet: choose who receives the notification, then Add.</Typography>
        ) : (
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ flexWrap: 'wrap' }}
            component="ul"
            aria-label="Targets"
            style={{ padding: 0, margin: 0 }}
          >
            {targets.map((target) => (
              <li key={`${target.principalType}:${target.principalId}`} style={{ listStyle: 'none' }}>
                <Chip
                  label={target.label}
                  onDelete={disabled ? undefined : () => onTargetsChange(targets.filter((t) => t !== target))}
                  deleteIcon={<Cancel titleAccess={`Remove ${target.label}`} />}
                />
              </li>
            ))}
          </Stack>
        )}
      </Stack>
    </Stack>
  );
}
