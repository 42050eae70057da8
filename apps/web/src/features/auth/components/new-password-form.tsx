import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { PasswordSchema } from '@patientsim/domain/auth/auth.schemas';
import { WEAK_PASSWORD_MESSAGE, isStrongPassword } from '@patientsim/domain/auth/password-policy';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { RouterLink } from '../../../components/router-link';
import {
  PASSWORDS_DO_NOT_MATCH_MESSAGE,
  PASSWORD_CHANGED_MESSAGE,
  WeakPasswordMessage,
} from '../../../components/weak-password-message';
import { paths } from '../../../config/paths';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, isApiError } from '../../../lib/api-client';
import { useResetPassword } from '../api/reset-password';

export const NewPasswordFormSchema = z
  .object({
    newPassword: PasswordSchema.refine(isStrongPassword, WEAK_PASSWORD_MESSAGE),
    confirmPassword: z.string(),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    path: ['confirmPassword'],
    message: PASSWORDS_DO_NOT_MATCH_MESSAGE,
  });
type NewPasswordFormValues = z.infer<typeof NewPasswordFormSchema>;

/** Reset password, second step (the link of the e-mail): a new password, twice. */
export function NewPasswordForm({ token }: { token: string }) {
  const reset = useResetPassword();
  const { control, handleSubmit } = useForm<NewPasswordFormValues>({
    resolver: zodResolver(NewPasswordFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });

  if (reset.isSuccess) {
    return (
      <Alert severity="success" role="status">
        {PASSWORD_CHANGED_MESSAGE}
      </Alert>
    );
  }

  const isWeakPassword = isApiError(reset.error) && reset.error.code === 'invalid_password';
  const isTokenInvalid = isApiError(reset.error) && reset.error.code === 'RESET_TOKEN_INVALID';
  return (
    <Box component="form" noValidate onSubmit={handleSubmit(({ newPassword }) => reset.mutate({ token, newPassword }))}>
      {reset.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {isWeakPassword ? <WeakPasswordMessage error={reset.error} /> : errorMessage(reset.error, UNKNOWN_ERROR_MESSAGE)}
          {isTokenInvalid ? (
            <Box sx={{ mt: 1 }}>
              <RouterLink to={paths.resetPassword}>Send a new reset email</RouterLink>
            </Box>
          ) : null}
        </Alert>
      ) : null}
      <NewPasswordFields
        control={control}
        name="newPassword"
        label="New password"
        confirmName="confirmPassword"
        confirmLabel="Confirm new password"
      />
      <Button type="submit" variant="contained" size="large" fullWidth loading={reset.isPending} sx={{ mt: 2 }}>
        Change password
      </Button>
    </Box>
  );
}
