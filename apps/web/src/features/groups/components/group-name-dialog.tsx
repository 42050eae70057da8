import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { GroupNameFormSchema, type GroupNameForm } from '@patientsim/domain/groups/group-management.schemas';
import { GROUP_NAME_MAX } from '@patientsim/domain/common/constants';
import { stripGroupPrefixes } from '@patientsim/domain/groups/group.schemas';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';

export type GroupNameDialogProps = {
  title: string;
  confirmLabel: string;
  /** The current display name when renaming. */
  initialName?: string;
  isPending: boolean;
  error: unknown;
  onSubmit: (name: string) => void;
  onCancel: () => void;
};

/**
 * Asks for a group name (create or rename): autofocused, with a 40-character counter; Enter submits;
 * the confirm button stays disabled while the name is blank. Mount it only while open so each
 * opening starts from `initialName`.
 */
export function GroupNameDialog({
  title,
  confirmLabel,
  initialName = '',
  isPending,
  error,
  onSubmit,
  onCancel,
}: GroupNameDialogProps) {
  const titleId = useId();
  const { control, handleSubmit } = useForm<GroupNameForm, unknown, { name: string }>({
    resolver: zodResolver(GroupNameFormSchema),
    defaultValues: { name: initialName },
  });
  const name = useWatch({ control, name: 'name' }) ?? '';
  return (
    <Dialog open onClose={isPending ? undefined : onCancel} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form noValidate onSubmit={handleSubmit((values) => onSubmit(values.name))}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {error ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {/* An error naming a group shows its plain name (spec section 3). */}
              {stripGroupPrefixes(errorMessage(error, UNKNOWN_ERROR_MESSAGE))}
            </Alert>
          ) : null}
          <FormTextField
            control={control}
            name="name"
            label="Group name"
            required
            autoFocus
            fullWidth
            margin="dense"
            disabled={isPending}
            hint={`${name.length}/${GROUP_NAME_MAX}`}
            slotProps={{ htmlInput: { maxLength: GROUP_NAME_MAX } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={isPending} disabled={name.trim().length === 0}>
            {confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
