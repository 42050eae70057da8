import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { TextInputField, type TextInputFieldProps } from './text-input-field';

type BoundProps = 'name' | 'value' | 'onChange' | 'onBlur' | 'inputRef' | 'error';

export type FormTextFieldProps<TValues extends FieldValues, TOutput extends FieldValues> = Omit<
  TextInputFieldProps,
  BoundProps
> & {
  control: Control<TValues, unknown, TOutput>;
  name: Path<TValues>;
};

/** The props binding a text field to the react-hook-form field `name`. */
export function useTextFieldBinding<TValues extends FieldValues, TOutput extends FieldValues>(
  control: Control<TValues, unknown, TOutput>,
  name: Path<TValues>,
  disabled: boolean | undefined,
): Pick<TextInputFieldProps, BoundProps | 'disabled'> {
  const { field, fieldState } = useController({ control, name });
  return {
    name: field.name,
    value: field.value ?? '',
    onChange: field.onChange,
    onBlur: field.onBlur,
    inputRef: field.ref,
    error: fieldState.error,
    disabled: disabled || field.disabled,
  };
}

/** A labelled MUI text field (`TextInputField`) bound to react-hook-form; its error shows in red under the field. */
export function FormTextField<TValues extends FieldValues, TOutput extends FieldValues>({
  control,
  name,
  disabled,
  ...props
}: FormTextFieldProps<TValues, TOutput>) {
  return <TextInputField {...props} {...useTextFieldBinding(control, name, disabled)} />;
}
