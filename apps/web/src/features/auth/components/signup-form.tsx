import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { InviteUnaffiliatedBody, InviteUnaffiliatedBodySchema } from '@patientsim/domain/auth/auth.schemas';
import { SIGNUP_ACCOUNT_TYPES, SIGNUP_ACCOUNT_TYPE_LABEL } from '@patientsim/domain/product/product-types';
import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';
import type { z } from 'zod';
import { NativeSelectInputField } from '../../../components/native-select-input-field';
import { TextInputField } from '../../../components/text-input-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { lazySchemaValidator } from '../../../lib/lazy-schema-validator';
import { useInviteUnaffiliated } from '../api/invite-unaffiliated';

export const INVITATION_SENT_MESSAGE =
  'An invitation has been sent to the specified email. Check your email and follow the instructions within.';

type SignupInput = z.input<typeof InviteUnaffiliatedBodySchema>;
type SignupField = keyof SignupInput;

/** Like sign-in, the sign-up page loads its schema (and zod) once the person starts filling it in. */
const signupValidator = lazySchemaValidator<SignupInput, InviteUnaffiliatedBody>(
  async () => (await import('@patientsim/domain/auth/auth.schemas')).InviteUnaffiliatedBodySchema,
);

/** How many fields the form has: `SignupForm`'s `shownFields` counts up to it. */
export const SIGNUP_FORM_FIELDS = 2;

/**
 * Plain sign-up (decision 9): e-mail and account type; the e-mailed link continues the sign-up.
 * Its two fields live in component state, as the sign-in form's do, so that the page loads
 * neither react-hook-form nor the query cache: it is checked on submit, then on every change.
 * `shownFields` renders only the first fields (the page reveals them one per task); the button
 * comes with the last.
 */
export function SignupForm({ shownFields = SIGNUP_FORM_FIELDS }: { shownFields?: number }) {
  const invite = useInviteUnaffiliated();
  const [values, setValues] = useState<SignupInput>({ email: '', accountType: 'EMS' });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<SignupField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const latestValues = useRef(values);
  const isSubmitted = useRef(false);
  const emailInput = useRef<HTMLInputElement>(null);

  const onChange = async (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
    const field = event.target.name as SignupField;
    const next = { ...latestValues.current, [field]: event.target.value };
    latestValues.current = next;
    setValues(next);
    if (!isSubmitted.current) return;
    const result = await signupValidator.validate(next);
    if (latestValues.current !== next) return;
    setFieldErrors((current) => ({ ...current, [field]: result.isValid ? undefined : result.fieldErrors[field] }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    isSubmitted.current = true;
    const result = await signupValidator.validate(latestValues.current);
    if (!result.isValid) {
      setFieldErrors(result.fieldErrors);
      setFormError(result.formError);
      if (result.fieldErrors.email !== undefined) emailInput.current?.focus();
      return;
    }
    setFieldErrors({});
    setFormError(null);
    await invite.submit(result.values);
  };

  const errorOf = (field: SignupField) => {
    const message = fieldErrors[field];
    return message === undefined ? undefined : { message };
  };

  if (invite.isSuccess) {
    return (
      <Alert severity="success" role="status">
        {INVITATION_SENT_MESSAGE}
      </Alert>
    );
  }

  return (
    <Box component="form" method="post" noValidate onFocus={signupValidator.preload} onSubmit={onSubmit}>
      {invite.error ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {errorMessage(invite.error, UNKNOWN_ERROR_MESSAGE)}
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
      {shownFields >= 2 ? (
        <>
          <NativeSelectInputField
            name="accountType"
            label="Account type"
            value={values.accountType}
            onChange={onChange}
            error={errorOf('accountType')}
          >
            {SIGNUP_ACCOUNT_TYPES.map((type) => (
              <option key={type} value={type}>
                {SIGNUP_ACCOUNT_TYPE_LABEL[type]}
              </option>
            ))}
          </NativeSelectInputField>
          <Button type="submit" variant="contained" size="large" fullWidth loading={invite.isPending} sx={{ mt: 2 }}>
            Sign Up
          </Button>
        </>
      ) : null}
    </Box>
  );
}
