import { PASSWORD_POLICY_TEXT, WEAK_PASSWORD_MESSAGE } from '@patientsim/domain/auth/password-policy';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { FormPasswordField } from './form-password-field';
import { WeakPasswordMessage } from './weak-password-message';

function renderPasswordError(message: string) {
  return message === WEAK_PASSWORD_MESSAGE ? <WeakPasswordMessage /> : message;
}

/**
 * A new password with the policy under it (a weak one explained), and its confirmation when
 * `confirmName` is given: the fields of sign-up, password reset, a provisioned account's first
 * password and the account's password change.
 */
export function NewPasswordFields<TValues extends FieldValues, TOutput extends FieldValues>({
  control,
  name,
  label,
  confirmName,
  confirmLabel = 'Confirm password',
}: {
  control: Control<TValues, unknown, TOutput>;
  name: Path<TValues>;
  label: string;
  confirmName?: Path<TValues>;
  confirmLabel?: string;
}) {
  return (
    <>
      <FormPasswordField
        control={control}
        name={name}
        label={label}
        autoComplete="new-password"
        required
        hint={PASSWORD_POLICY_TEXT}
        renderError={renderPasswordError}
      />
      {confirmName ? (
        <FormPasswordField control={control} name={confirmName} label={confirmLabel} autoComplete="new-password" required />
      ) : null}
    </>
  );
}
