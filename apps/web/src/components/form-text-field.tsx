import TextField, { type TextFieldProps } from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';

export type FormTextFieldProps<TValues extends FieldValues, TOutput extends FieldValues> = Omit<
  TextFieldProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'inputRef' | 'error' | 'helperText'
> & {
  control: Control<TValues, unknown, TOutput>;
  name: Path<TValues>;
  /** Shown under the field while it has no error. */
  hint?: ReactNode;
  /** Replaces the validation message for fields whose errors need richer text. */
  renderError?: (message: string) => ReactNode;
};

/** A labelled MUI text field bound to react-hook-form; its error shows in red under the field. */
export function FormTextField<TValues extends FieldValues, TOutput extends FieldValues>({
  control,
  name,
  hint,
  renderError,
  ...props
}: FormTextFieldProps<TValues, TOutput>) {
  const { field, fieldState } = useController({ control, name });
  const message = fieldState.error?.message;
  return (
    <TextField
      {...props}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      disabled={props.disabled || field.disabled}
      error={Boolean(fieldState.error)}
      helperText={message ? (renderError ? renderError(message) : message) : hint}
    />
  );
}
