import { zodResolver } from '@hookform/resolvers/zod';
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
import type { Group } from '@patientsim/domain/groups/group.schemas';
import {
  type NewOrganisationForm,
  type NewOrganisationFormInput,
  NewOrganisationFormSchema,
} from '@patientsim/domain/invitations/invite-users.schemas';
import { DEFAULT_PRODUCT_TYPE, PRODUCT_TYPES, PRODUCT_TYPE_LABEL } from '@patientsim/domain/product/product-types';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useCreateOrganization } from '../api/create-organization';

const DEFAULTS: NewOrganisationFormInput = { name: '', productType: DEFAULT_PRODUCT_TYPE, seats: '0', keyOwnerEmail: '' };

/**
 * Creates a customer organisation and invites its key owner in one step (seats default 0, spec
 * section 9). The key owner's invitation takes no seat; they become key owner when they accept.
 */
export function CreateOrganizationDialog({
  isOpen,
  onClose,
  onCreated,
}: {
  isOpen: boolean;
  onClose: () => void;
  onCreated: (organization: Group, keyOwnerEmail: string) => void;
}) {
  const titleId = useId();
  const create = useCreateOrganization();
  const { control, handleSubmit, reset } = useForm<NewOrganisationFormInput, unknown, NewOrganisationForm>({
    resolver: zodResolver(NewOrganisationFormSchema),
    defaultValues: DEFAULTS,
  });
  const isSending = create.isPending;
  const close = () => {
    if (isSending) return;
    reset(DEFAULTS);
    create.reset();
    onClose();
  };
  return (
    <Dialog open={isOpen} onClose={close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Create organization</DialogTitle>
      {isSending ? <LinearProgress aria-label="Creating the organization" /> : null}
      <form
        noValidate
        onSubmit={(event) =>
          void handleSubmit((values) =>
            create.mutate(values, {
              onSuccess: (result) => {
                if (!result.createdOrg) return;
                reset(DEFAULTS);
                onCreated(result.createdOrg, result.user.email);
              },
            }),
          )(event)
        }
      >
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            The key owner is invited as an admin and becomes the organization&apos;s key owner on accepting.
          </DialogContentText>
          <Stack spacing={2}>
            <FormTextField
              control={control}
              name="name"
              label="Organization name"
              required
              autoFocus
              disabled={isSending}
              fullWidth
            />
            <Controller
              control={control}
              name="productType"
              render={({ field }) => (
                <TextField
                  select
                  label="Product type"
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  disabled={isSending}
                  fullWidth
                >
                  {PRODUCT_TYPES.map((type) => (
                    <MenuItem key={type} value={type}>
                      {PRODUCT_TYPE_LABEL[type]}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <FormTextField
              control={control}
              name="seats"
              label="Seats"
              disabled={isSending}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              hint="A whole number; the key owner takes no seat"
            />
            <FormTextField
              control={control}
              name="keyOwnerEmail"
              label="Key owner email"
              type="email"
              required
              disabled={isSending}
              fullWidth
            />
            {create.error ? <Alert severity="error">{errorMessage(create.error, UNKNOWN_ERROR_MESSAGE)}</Alert> : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={isSending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={isSending}>
            Create
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
