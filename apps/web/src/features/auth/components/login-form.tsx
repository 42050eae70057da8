import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { SignInBody, SignInBodySchema } from '@patientsim/domain/auth/auth.schemas';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';
import type { z } from 'zod';
import { PasswordInputField } from '../../../components/password-input-field';
import { TextInputField } from '../../../components/text-input-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, isApiError } from '../../../lib/api-client';
import { lazySchemaValidator } from '../../../lib/lazy-schema-validator';
import { useSignIn } from '../api/sign-in';

type SignInInput = z.input<typeof SignInBodySchema>;
type SignInField = keyof SignInInput;

/** The fields in the order they show (the first invalid one takes the focus). */
const FIELDS: readonly SignInField[] = ['email', 'password'];

/** The sign-in page is the first page: its schema (and zod) load once the person starts typing. */
const signInValidator = lazySchemaValidator<SignInInput, SignInBody>(
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

/**
 * E-mail and password (spec section 2); errors show in red on the form. The first page's one
 * form keeps its two fields in component state rather than in react-hook-form, which stays out of
 * the first load: it is checked on submit, then again on every change, as the other forms are.
 */
export function LoginForm({ onSignedIn }: { onSignedIn: (signedIn: { licenseToken: string | null }) => void }) {
  const signIn = useSignIn();
  const [values, setValues] = useState<SignInInput>({ email: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<SignInField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const latestValues = useRef(values);
  const isSubmitted = useRef(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  const onChange = async (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const field = event.target.name as SignInField;
    const next = { ...latestValues.current, [field]: event.target.value };
    latestValues.current = next;
    setValues(next);
    if (!isSubmitted.current) return;
    const result = await signInValidator.validate(next);
    // A later change has been checked (or is being checked) instead.
    if (latestValues.current !== next) return;
    setFieldErrors((current) => ({ ...current, [field]: result.isValid ? undefined : result.fieldErrors[field] }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    isSubmitted.current = true;
    const result = await signInValidator.validate(latestValues.current);
    if (!result.isValid) {
      setFieldErrors(result.fieldErrors);
      setFormError(result.formError);
      const firstInvalid = FIELDS.find((field) => result.fieldErrors[field] !== undefined);
      if (firstInvalid) (firstInvalid === 'email' ? emailInput : passwordInput).current?.focus();
      return;
    }
    setFieldErrors({});
    setFormError(null);
    const signedIn = await signIn.submit(result.values);
    if (signedIn) onSignedIn(signedIn.answer);
  };

  const errorOf = (field: SignInField) => {
    const message = fieldErrors[field];
    return message === undefined ? undefined : { message };
  };

  return (
    <Box component="form" method="post" noValidate onFocus={signInValidator.preload} onSubmit={onSubmit}>
      {signIn.error ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {signInErrorMessage(signIn.error)}
        </Alert>
      ) : null}
      {formError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {formError}
        </Alert>
      ) : null}
      <TextInputField
        name="email"
        value={values.email}
        onChange={onChange}
        inputRef={emailInput}
        error={errorOf('email')}
        label="Email"
        type="email"
        autoComplete="email"
        required
      />
      <PasswordInputField
        name="password"
        value={values.password}
        onChange={onChange}
        inputRef={passwordInput}
        error={errorOf('password')}
        label="Password"
        autoComplete="current-password"
        required
      />
      <Button type="submit" variant="contained" size="large" fullWidth loading={signIn.isPending} sx={{ mt: 2 }}>
        Log In
      </Button>
    </Box>
  );
}
