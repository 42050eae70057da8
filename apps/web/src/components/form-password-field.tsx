import type { FieldValues } from 'react-hook-form';
import { type FormTextFieldProps, useTextFieldBinding } from './form-text-field';
import { PasswordInputField } from './password-input-field';

/** A password field with a show/hide button, bound to react-hook-form. */
export function FormPasswordField<TValues extends FieldValues, TOutput extends FieldValues>({
  control,
  name,
  disabled,
  ...props
}: Omit<FormTextFieldProps<TValues, TOutput>, 'type'>) {
  return <PasswordInputField {...props} {...useTextFieldBinding(control, name, disabled)} />;
}
