import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { SignInBody, SignInBodySchema } from '@patientsim/domain/auth/auth.schemas';
import type { SignInResult } from '@patientsim/domain/auth/two-factor.schemas';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormPasswordField } from '../../../components/form-password-field';
import { FormTextField } from '../../../components/form-text-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, isApiError } from '../../../lib/api-client';
import { lazyZodResolver } from '../../../lib/lazy-zod-resolver';
import { useSignIn } from '../api/sign-in';

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

/** Checked with the server's schema, loaded with zod at the first submit (`lazyZodResolver`). */
const signInResolver = lazyZodResolver<z.input<typeof SignInBodySchema>, SignInBody>(
  async () => (await import('@patientsim/domain/auth/auth.schemas')).SignInBodySchema,
);

/**
 * E-mail and password (spec section 2); errors show in red on the form. Checked on submit, then
 * again on every change; the first invalid field takes the focus. Answers signed in, or with the
 * second factor still to prove.
 */
export function LoginForm({ onSignedIn }: { onSignedIn: (result: SignInResult) => void }) {
  const signIn = useSignIn();
  const { control, handleSubmit } = useForm<z.input<typeof SignInBodySchema>, unknown, SignInBody>({
    resolver: signInResolver,
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit((values) => signIn.mutate(values, { onSuccess: onSignedIn }));

  return (
    <Box component="form" method="post" noValidate onSubmit={onSubmit}>
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
