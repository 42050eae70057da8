import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { type Group, parseGroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { ROLES, ROLE_LABEL } from '@patientsim/domain/roles/roles';
import { type MoveUserBody, MoveUserBodySchema, type UserDetails } from '@patientsim/domain/users/users.schemas';
import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { FormNativeSelectField } from '../../../components/form-native-select-field';
import { NativeSelectInputField } from '../../../components/native-select-input-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useMoveUser } from '../api/move-user';
import { OrganizationSearchField } from './organization-search-field';

/** No organisation left: the person only joins the new one. */
const NONE = '';

/**
 * The organisation left (or none), the one joined and the role there become the request body,
 * checked with the server's own MoveUserBodySchema.
 */
const MoveUserFormSchema = z
  .object({ fromOrgId: z.string(), target: z.custom<Group>().nullable(), role: z.enum(ROLES) })
  .transform(
    ({ fromOrgId, target, role }): MoveUserBody => ({
      orgId: target?._id ?? '',
      role,
      ...(fromOrgId === NONE ? {} : { fromOrgId }),
    }),
  )
  .pipe(MoveUserBodySchema);
type MoveUserFormInput = z.input<typeof MoveUserFormSchema>;
type MoveUserFormValues = z.output<typeof MoveUserFormSchema>;

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
  const firstFrom = organisations.find((row) => !row.key_owner) ?? null;
  const { control, handleSubmit, setValue } = useForm<MoveUserFormInput, unknown, MoveUserFormValues>({
    resolver: zodResolver(MoveUserFormSchema),
    defaultValues: { fromOrgId: firstFrom?.group._id ?? NONE, target: null, role: firstFrom?.role ?? details.user.role },
  });
  const fromOrgId = useWatch({ control, name: 'fromOrgId' });
  const target = useWatch({ control, name: 'target' });
  const role = useWatch({ control, name: 'role' });
  const from = organisations.find((row) => row.group._id === fromOrgId) ?? null;
  const [isConfirming, setIsConfirming] = useState(false);
  const name = [details.user.given_name, details.user.family_name].filter(Boolean).join(' ') || details.user.email;
  const close = () => {
    if (!move.isPending) onClose();
  };
  // The first submit asks for confirmation; the second, from the confirmation, moves.
  const submit = handleSubmit((body) => {
    if (!isConfirming) {
      setIsConfirming(true);
      return;
    }
    const targetName = target?.name ?? '';
    move.mutate(
      { userId: details.user.user_id, ...body },
      { onSuccess: () => onMoved(`${name} is now a member of ${targetName}.`) },
    );
  });
  return (
    <Dialog open onClose={close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Change organization</DialogTitle>
      {move.isPending ? <LinearProgress aria-label="Changing the organization" /> : null}
      <form onSubmit={submit} noValidate>
        <DialogContent>
          {isConfirming && target ? (
            <DialogContentText>
              {from
                ? `Move ${name} from ${from.group.name} to ${target.name} as ${ROLE_LABEL[role]}? They are archived in ${from.group.name}, leave its groups and are signed out.`
                : `Add ${name} to ${target.name} as ${ROLE_LABEL[role]}? They are signed out.`}
            </DialogContentText>
          ) : (
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Controller
                control={control}
                name="fromOrgId"
                render={({ field, fieldState }) => (
                  <NativeSelectInputField
                    name={field.name}
                    label="From organization"
                    value={field.value}
                    onChange={(event) => {
                      field.onChange(event);
                      // The role offered is the one the person holds in the organisation they leave.
                      const next = organisations.find((row) => row.group._id === event.target.value);
                      setValue('role', next?.role ?? details.user.role);
                    }}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    error={fieldState.error}
                  >
                    {organisations.map((row) => (
                      <option key={row.group._id} value={row.group._id} disabled={row.key_owner}>
                        {row.key_owner ? `${row.group.name} (key owner: choose another key owner first)` : row.group.name}
                      </option>
                    ))}
                    <option value={NONE}>None (keep every current organization)</option>
                  </NativeSelectInputField>
                )}
              />
              <Controller
                control={control}
                name="target"
                render={({ field }) => (
                  <OrganizationSearchField
                    label="To organization"
                    value={field.value}
                    onChange={field.onChange}
                    excludedIds={organisations.map((row) => row.group._id)}
                  />
                )}
              />
              <FormNativeSelectField control={control} name="role" label="Role there">
                {ROLES.map((option) => (
                  <option key={option} value={option}>
                    {ROLE_LABEL[option]}
                  </option>
                ))}
              </FormNativeSelectField>
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
            <Button type="submit" variant="contained" loading={move.isPending}>
              Move
            </Button>
          ) : (
            <Button type="submit" variant="contained" disabled={!target || from?.key_owner === true}>
              Next
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
