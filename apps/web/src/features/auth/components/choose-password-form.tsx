import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { PasswordSchema } from '@patientsim/domain/auth/auth.schemas';
import { WEAK_PASSWORD_MESSAGE, isStrongPassword } from '@patientsim/domain/auth/password-policy';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { PASSWORDS_DO_NOT_MATCH_MESSAGE, WeakPasswordMessage } from '../../../components/weak-password-message';
import { isApiError, replyMessageOr } from '../../../lib/api-client';
import { useAddProvisionedUser } from '../api/add-provisioned-user';
import type { ProvisioningDescription } from '../api/get-provisioning';

/** Verbatim from the spec (section 8). */
export const PROVISIONING_FALLBACK_ERROR = 'An error occurred during provisioning.';

export const ChoosePasswordFormSchema = z
  .object({
    password: PasswordSchema.refine(isStrongPassword, WEAK_PASSWORD_MESSAGE),
    confirmPassword: z.string(),
  })
  .refine((values) => values.password === values.confirmPassword, {
    path: ['confirmPassword'],
    message: PASSWORDS_DO_NOT_MATCH_MESSAGE,
  });
type ChoosePasswordValues = z.infer<typeof ChoosePasswordFormSchema>;

/** A provisioned account's first password; e-mail and names are shown read-only (decision 15). */
export function ChoosePasswordForm({
  token,
  person,
  onCreated,
}: {
  token: string;
  person: ProvisioningDescription;
  onCreated: () => void;
}) {
  const add = useAddProvisionedUser();
  const { control, handleSubmit } = useForm<ChoosePasswordValues>({
    resolver: zodResolver(ChoosePasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const readOnly = { htmlInput: { readOnly: true } } as const;

  const isWeakPassword = isApiError(add.error) && add.error.code === 'invalid_password';
  return (
    <Box
      component="form"
      noValidate
      onSubmit={handleSubmit(({ password }) => add.mutate({ password, token }, { onSuccess: onCreated }))}
    >
      {add.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {isWeakPassword ? <WeakPasswordMessage error={add.error} /> : replyMessageOr(add.error, PROVISIONING_FALLBACK_ERROR)}
        </Alert>
      ) : null}
      <TextField label="Email" value={person.email} autoComplete="email" slotProps={readOnly} />
      <TextField label="First name" value={person.given_name} autoComplete="given-name" slotProps={readOnly} />
      <TextField label="Last name" value={person.family_name} autoComplete="family-name" slotProps={readOnly} />
      <NewPasswordFields control={control} name="password" label="Password" confirmName="confirmPassword" />
      <Button type="submit" variant="contained" size="large" fullWidth loading={add.isPending} sx={{ mt: 2 }}>
        Set password
      </Button>
    </Box>
  );
}
