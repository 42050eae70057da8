import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { type SignInBody, SignInBodySchema } from '@patientsim/domain/auth/auth.schemas';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormPasswordField } from '../../../components/form-password-field';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, isApiError } from '../../../lib/api-client';
import { useSignIn } from '../api/sign-in';

function signInErrorMessage(error: Error): string {
  if (isApiError(error) && error.code === 'RATE_LIMITED') return ERROR_CODES.RATE_LIMITED.message;
  return errorMessage(error, UNKNOWN_ERROR_MESSAGE);
}

/** E-mail and password (spec section 2); errors show in red on the form. */
export function LoginForm({ onSignedIn }: { onSignedIn: () => void }) {
  const signIn = useSignIn();
  const { control, handleSubmit } = useForm<z.input<typeof SignInBodySchema>, unknown, SignInBody>({
    resolver: zodResolver(SignInBodySchema),
    defaultValues: { email: '', password: '' },
  });

  return (
    <Box component="form" noValidate onSubmit={handleSubmit((values) => signIn.mutate(values, { onSuccess: onSignedIn }))}>
      {signIn.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {signInErrorMessage(signIn.error)}
        </Alert>
      ) : null}
      <FormTextField control={control} name="email" label="Email" type="email" autoComplete="email" required />
      <FormPasswordField control={control} name="password" label="Password" autoComplete="current-password" required />
      <Button type="submit" variant="contained" size="large" fullWidth loading={signIn.isPending} sx={{ mt: 2 }}>
        Log In
      </Button>
    </Box>
  );
}
