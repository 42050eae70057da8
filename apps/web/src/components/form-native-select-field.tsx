import type { ReactNode } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { NativeSelectInputField } from './native-select-input-field';

export type FormNativeSelectFieldProps<TValues extends FieldValues, TOutput extends FieldValues> = {
  control: Control<TValues, unknown, TOutput>;
  name: Path<TValues>;
  label: ReactNode;
  /** The `<option>` elements. */
  children: ReactNode;
  required?: boolean;
  disabled?: boolean;
};

/** A `NativeSelectInputField` bound to react-hook-form. */
export function FormNativeSelectField<TValues extends FieldValues, TOutput extends FieldValues>({
  control,
  name,
  label,
  children,
  required,
  disabled,
}: FormNativeSelectFieldProps<TValues, TOutput>) {
  const { field, fieldState } = useController({ control, name });
  return (
    <NativeSelectInputField
      name={field.name}
      label={label}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={fieldState.error}
      required={required}
      disabled={disabled || field.disabled}
    >
      {children}
    </NativeSelectInputField>
  );
}
