import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  APPLICATION_TYPE_LABELS,
  APPLICATION_TYPES,
  type RegisterApplicationForm,
  type RegisterApplicationFormInput,
  RegisterApplicationFormSchema,
  type RegisteredApplication,
} from '@patientsim/domain/applications/application.schemas';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useRegisterApplication } from '../api/register-application';

const DEFAULTS: RegisterApplicationFormInput = { name: '', type: 'confidential', redirectUris: '', postLogoutRedirectUris: '' };
const URI_HINT = 'One per line: https addresses, or http://localhost for development';

/** Registers one of the platform's applications (decision 0065). */
export function RegisterApplicationDialog({
  isOpen,
  onClose,
  onRegistered,
}: {
  isOpen: boolean;
  onClose: () => void;
  onRegistered: (registered: RegisteredApplication) => void;
}) {
  const titleId = useId();
  const typeLabelId = useId();
  const register = useRegisterApplication();
  const { control, handleSubmit, reset } = useForm<RegisterApplicationFormInput, unknown, RegisterApplicationForm>({
    resolver: zodResolver(RegisterApplicationFormSchema),
    defaultValues: DEFAULTS,
  });
  const isSending = register.isPending;
  const close = () => {
    if (isSending) return;
    reset(DEFAULTS);
    register.reset();
    onClose();
  };
  const uriField = (name: 'redirectUris' | 'postLogoutRedirectUris', label: string, isRequired: boolean) => (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          label={label}
          required={isRequired}
          multiline
          minRows={2}
          disabled={isSending}
          fullWidth
          error={fieldState.error !== undefined}
          helperText={fieldState.error?.message ?? URI_HINT}
        />
      )}
    />
  );
  return (
    <Dialog open={isOpen} onClose={close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Register application</DialogTitle>
      {isSending ? <LinearProgress aria-label="Registering the application" /> : null}
      <form
        noValidate
        onSubmit={(event) =>
          void handleSubmit((values) =>
            register.mutate(values, {
              onSuccess: (registered) => {
                reset(DEFAULTS);
                onRegistered(registered);
              },
            }),
          )(event)
        }
      >
        <DialogContent>
          <Stack spacing={2}>
            <FormTextField control={control} name="name" label="Name" required autoFocus disabled={isSending} fullWidth />
            <Controller
              control={control}
              name="type"
              render={({ field }) => (
                <FormControl disabled={isSending}>
                  <FormLabel id={typeLabelId}>Type</FormLabel>
                  <RadioGroup aria-labelledby={typeLabelId} {...field}>
                    {APPLICATION_TYPES.map((type) => (
                      <FormControlLabel key={type} value={type} control={<Radio />} label={APPLICATION_TYPE_LABELS[type]} />
                    ))}
                  </RadioGroup>
                </FormControl>
              )}
            />
            {uriField('redirectUris', 'Redirect URIs', true)}
            {uriField('postLogoutRedirectUris', 'Post-logout redirect URIs', false)}
            {register.error ? <Alert severity="error">{errorMessage(register.error, UNKNOWN_ERROR_MESSAGE)}</Alert> : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={isSending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={isSending}>
            Register
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
