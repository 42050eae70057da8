import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { SignInBody, SignInBodySchema } from '@patientsim/domain/auth/auth.schemas';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormPasswordField } from '../../../components/form-password-field';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, isApiError } from '../../../lib/api-client';
import { lazyZodResolver } from '../../../lib/lazy-zod-resolver';
import { useSignIn } from '../api/sign-in';

/** The sign-in page is the first page: its schema (and zod) load once the person starts typing. */
const signInResolver = lazyZodResolver<z.input<typeof SignInBodySchema>, SignInBody>(
  async () => (await import('@patientsim/domain/auth/auth.schemas')).SignInBodySchema,
);

function signInErrorMessage(error: Error): string {
  if (isApiError(error)) {
    // Locked after failed attempts: for minutes to hours, so "later", not "shortly".
    if (error.code === 'RATE_LIMITED') return ERROR_CODES.RATE_LIMITED.message;
    // Overloaded: the server (or a proxy in front of it) turned the attempt away before checking it.
    if (error.statusCode === 503 || (error.statusCode === 429 && error.retryAfterSeconds !== null)) {
      return ERROR_CODES.SERVER_BUSY.message;
    }
  }
  return errorMessage(error, UNKNOWN_ERROR_MESSAGE);
}

/** E-mail and password (spec section 2); errors show in red on the form. */
export function LoginForm({ onSignedIn }: { onSignedIn: () => void }) {
  const signIn = useSignIn();
  const { control, handleSubmit, formState } = useForm<z.input<typeof SignInBodySchema>, unknown, SignInBody>({
    resolver: signInResolver,
    defaultValues: { email: '', password: '' },
  });

  return (
    <Box
      component="form"
      noValidate
      onFocus={signInResolver.preload}
      onSubmit={handleSubmit((values) => signIn.mutate(values, { onSuccess: onSignedIn }))}
    >
      {signIn.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {signInErrorMessage(signIn.error)}
        </Alert>
      ) : null}
      {formState.errors.root ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {formState.errors.root.message}
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
