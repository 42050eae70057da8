import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { type PasswordConfirmation, PasswordConfirmationSchema } from '@patientsim/domain/auth/two-factor.schemas';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { FormPasswordField } from '../../../components/form-password-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, isApiError } from '../../../lib/api-client';

/** A wrong password shows on the field; anything else (the last factor required...) above it. */
export function isWrongPassword(error: unknown): boolean {
  return isApiError(error) && error.code === 'CURRENT_PASSWORD_WRONG';
}

/**
 * The password asked again before a change to the second factor (setting up, removing, new
 * recovery codes). `id` names the form, so that a dialog's action button can submit it.
 */
export function PasswordForm({
  id,
  description,
  error,
  isPending,
  submitLabel,
  onCancel,
  onSubmit,
}: {
  id?: string;
  description?: ReactNode;
  error: Error | null;
  isPending: boolean;
  /** Without it, the form has no button of its own (a dialog's action submits it through `id`). */
  submitLabel?: string;
  /** A Cancel button before the form's own (with `submitLabel`). */
  onCancel?: (() => void) | undefined;
  onSubmit: (values: PasswordConfirmation) => void;
}) {
  const isWrong = isWrongPassword(error);
  const { control, handleSubmit } = useForm<PasswordConfirmation>({
    resolver: zodResolver(PasswordConfirmationSchema),
    defaultValues: { password: '' },
    // The server's refusal of the password shows on the field, as a rule of the form would.
    ...(isWrong && error ? { errors: { password: { type: 'server', message: error.message } } } : {}),
  });
  return (
    <Box component="form" id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
      {description}
      {error && !isWrong ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorMessage(error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
      ) : null}
      <FormPasswordField control={control} name="password" label="Password" autoComplete="current-password" autoFocus required />
      {submitLabel ? (
        <Box sx={{ mt: 1, display: 'flex', gap: 1 }}>
          {onCancel ? (
            <Button onClick={onCancel} disabled={isPending}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" variant="contained" loading={isPending}>
            {submitLabel}
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}
