import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import { type GroupMember, GroupChangesSchema } from '@patientsim/domain/groups/group-management.schemas';
import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { PersonSearchField } from '../../../components/person-search-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useOrganisationAdmins } from '../api/search-organisation-admins';

/** Spec section 4: the confirmation before a key owner change. */
export const KEY_OWNER_CHANGE_CONFIRM = 'Changing the Group Admin will prevent you from further editing this group';

/** The admin chosen becomes the change's `ownerId`, checked with the server's GroupChangesSchema. */
const KeyOwnerFormSchema = z
  .object({ owner: z.custom<GroupMember>().nullable() })
  .transform(({ owner }) => ({ ownerId: owner?.user_id ?? '' }))
  .pipe(z.object({ ownerId: GroupChangesSchema.shape.ownerId.unwrap() }));
type KeyOwnerFormInput = z.input<typeof KeyOwnerFormSchema>;
type KeyOwnerFormValues = z.output<typeof KeyOwnerFormSchema>;

/**
 * Chooses another admin of the organisation as key owner, then confirms. The change itself (and
 * the session renewal after it) is the caller's `onConfirm`.
 */
export function KeyOwnerChangeDialog({
  orgId,
  currentOwnerId,
  isPending,
  error,
  onConfirm,
  onCancel,
}: {
  orgId: string;
  currentOwnerId: string | null;
  isPending: boolean;
  error: unknown;
  onConfirm: (ownerId: string) => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  // What is typed in the search box: a search term, not a value of the form.
  const [term, setTerm] = useState('');
  const { control, handleSubmit } = useForm<KeyOwnerFormInput, unknown, KeyOwnerFormValues>({
    resolver: zodResolver(KeyOwnerFormSchema),
    defaultValues: { owner: null },
  });
  const selected = useWatch({ control, name: 'owner' });
  const [isConfirming, setIsConfirming] = useState(false);
  const admins = useOrganisationAdmins(orgId, term);
  const options = term ? (admins.data ?? []).filter((admin) => admin.user_id !== currentOwnerId) : [];
  // The first submit asks for confirmation; the second, from the confirmation, changes the key owner.
  const submit = handleSubmit(({ ownerId }) => {
    if (isConfirming) onConfirm(ownerId);
    else setIsConfirming(true);
  });
  return (
    <Dialog open onClose={isPending ? undefined : onCancel} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Change Group Admin</DialogTitle>
      <form onSubmit={submit} noValidate>
        <DialogContent>
          {isConfirming && selected ? (
            <DialogContentText component="div">
              <p>{KEY_OWNER_CHANGE_CONFIRM}</p>
              <p>
                New Group Admin:{' '}
                <strong>{[selected.given_name, selected.family_name].filter(Boolean).join(' ') || selected.email}</strong> (
                {selected.email})
              </p>
            </DialogContentText>
          ) : (
            <Box sx={{ pt: 1 }}>
              <Controller
                control={control}
                name="owner"
                render={({ field }) => (
                  <PersonSearchField
                    label="New Group Admin (an admin of the organization)"
                    value={field.value}
                    onChange={field.onChange}
                    options={options}
                    isLoading={admins.isFetching}
                    onSearch={setTerm}
                  />
                )}
              />
            </Box>
          )}
          {isPending ? <LinearProgress aria-label="Changing the Group Admin" sx={{ mt: 2 }} /> : null}
          {error ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {errorMessage(error, UNKNOWN_ERROR_MESSAGE)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={isPending}>
            Cancel
          </Button>
          {isConfirming && selected ? (
            <Button type="submit" variant="contained" loading={isPending}>
              Change Group Admin
            </Button>
          ) : (
            <Button type="submit" variant="contained" disabled={!selected}>
              Next
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
