import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { isStrongPassword } from '@patientsim/domain/auth/password-policy';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormPasswordField } from '../../../components/form-password-field';
import { NewPasswordFields } from '../../../components/new-password-fields';
import {
  PASSWORDS_DO_NOT_MATCH_MESSAGE,
  PASSWORD_CHANGED_MESSAGE,
  WeakPasswordMessage,
} from '../../../components/weak-password-message';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, isApiError } from '../../../lib/api-client';
import { useChangePassword } from '../api/change-password';

/** Verbatim from the spec (section 5). */
export const FIELDS_MISSING_MESSAGE = 'One or more fields is missing!';

export type ChangePasswordValues = { oldPassword: string; newPassword: string; confirmPassword: string };

export type ChangePasswordProblem = 'missing' | 'mismatch' | 'weak';

/** The form's own rules, checked before anything is sent (spec section 5). */
export function findChangePasswordProblem(values: ChangePasswordValues): ChangePasswordProblem | null {
  if (!values.oldPassword || !values.newPassword || !values.confirmPassword) return 'missing';
  if (values.newPassword !== values.confirmPassword) return 'mismatch';
  if (!isStrongPassword(values.newPassword)) return 'weak';
  return null;
}

function ProblemText({ problem }: { problem: ChangePasswordProblem }) {
  if (problem === 'missing') return FIELDS_MISSING_MESSAGE;
  if (problem === 'mismatch') return PASSWORDS_DO_NOT_MATCH_MESSAGE;
  return <WeakPasswordMessage />;
}

const EMPTY: ChangePasswordValues = { oldPassword: '', newPassword: '', confirmPassword: '' };

/** Old password, new password, confirm (spec section 2). */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const [problem, setProblem] = useState<ChangePasswordProblem | null>(null);
  const { control, handleSubmit, reset } = useForm<ChangePasswordValues>({ defaultValues: EMPTY });

  const onSubmit = handleSubmit((values) => {
    const found = findChangePasswordProblem(values);
    setProblem(found);
    if (found) {
      change.reset();
      return;
    }
    change.mutate({ oldPassword: values.oldPassword, newPassword: values.newPassword }, { onSuccess: () => reset(EMPTY) });
  });

  const isWeakOnServer = isApiError(change.error) && change.error.code === 'invalid_password';
  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ maxWidth: 480 }}>
      {problem ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          <ProblemText problem={problem} />
        </Alert>
      ) : null}
      {change.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {isWeakOnServer ? <WeakPasswordMessage error={change.error} /> : errorMessage(change.error, UNKNOWN_ERROR_MESSAGE)}
        </Alert>
      ) : null}
      {change.isSuccess ? (
        <Alert severity="success" role="status" sx={{ mb: 1 }}>
          {PASSWORD_CHANGED_MESSAGE}
        </Alert>
      ) : null}
      <FormPasswordField control={control} name="oldPassword" label="Old password" autoComplete="current-password" required />
      <NewPasswordFields
        control={control}
        name="newPassword"
        label="New password"
        confirmName="confirmPassword"
        confirmLabel="Confirm new password"
      />
      <Button type="submit" variant="contained" size="large" loading={change.isPending} sx={{ mt: 2 }}>
        Change password
      </Button>
    </Box>
  );
}
