import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { NameSchema, PasswordSchema } from '@patientsim/domain/auth/auth.schemas';
import { WEAK_PASSWORD_MESSAGE, isStrongPassword } from '@patientsim/domain/auth/password-policy';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { FormTextField } from '../../../components/form-text-field';
import { WeakPasswordMessage } from '../../../components/weak-password-message';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, isApiError } from '../../../lib/api-client';
import { useRegister } from '../api/register';
import { useSignUp } from '../api/sign-up';

/** Verbatim from the spec (section 8). */
export const VERIFICATION_EMAIL_SENT_MESSAGE = 'Verification email sent';

/** The fields the person types; token and e-mail come from the invite link. */
export const InviteSignupFormSchema = z.object({
  given_name: z.string().trim().min(1, 'Must specify a first name.').pipe(NameSchema),
  family_name: z.string().trim().min(1, 'Must specify a last name.').pipe(NameSchema),
  password: PasswordSchema.refine(isStrongPassword, WEAK_PASSWORD_MESSAGE),
});
type InviteSignupFormInput = z.input<typeof InviteSignupFormSchema>;
type InviteSignupFormValues = z.output<typeof InviteSignupFormSchema>;

/**
 * The invite variant of sign-up: first name, last name and password; no account-type choice. With
 * an invitation token the address counts as verified and the person is signed in; without one the
 * account is created unverified and a verification e-mail is sent.
 */
export function InviteSignupForm({ token, email, onSignedUp }: { token: string | null; email: string; onSignedUp: () => void }) {
  const invited = useSignUp();
  const registered = useRegister();
  const signUp = token === null ? registered : invited;
  const { control, handleSubmit } = useForm<InviteSignupFormInput, unknown, InviteSignupFormValues>({
    resolver: zodResolver(InviteSignupFormSchema),
    defaultValues: { given_name: '', family_name: '', password: '' },
  });

  const isWeakPassword = isApiError(signUp.error) && signUp.error.code === 'invalid_password';
  if (registered.isSuccess) {
    return (
      <Alert severity="success" role="status">
        {VERIFICATION_EMAIL_SENT_MESSAGE}
      </Alert>
    );
  }
  return (
    <Box
      component="form"
      noValidate
      onSubmit={handleSubmit((values) => {
        if (token === null) registered.mutate({ ...values, email });
        else invited.mutate({ ...values, token, email }, { onSuccess: onSignedUp });
      })}
    >
      {signUp.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {isWeakPassword ? <WeakPasswordMessage error={signUp.error} /> : errorMessage(signUp.error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
      ) : null}
      <TextField label="Email" value={email} autoComplete="email" slotProps={{ htmlInput: { readOnly: true } }} />
      <FormTextField control={control} name="given_name" label="First name" autoComplete="given-name" required />
      <FormTextField control={control} name="family_name" label="Last name" autoComplete="family-name" required />
      <NewPasswordFields control={control} name="password" label="Password" />
      <Button type="submit" variant="contained" size="large" fullWidth loading={signUp.isPending} sx={{ mt: 2 }}>
        Sign Up
      </Button>
    </Box>
  );
}
