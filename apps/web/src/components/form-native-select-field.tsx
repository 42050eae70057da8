import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput from '@mui/material/OutlinedInput';
import { type ReactNode, useId } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';

export type FormNativeSelectFieldProps<TValues extends FieldValues, TOutput extends FieldValues> = {
  control: Control<TValues, unknown, TOutput>;
  name: Path<TValues>;
  label: ReactNode;
  /** The `<option>` elements. */
  children: ReactNode;
  required?: boolean;
  disabled?: boolean;
};

/**
 * A labelled native select bound to react-hook-form, drawn like the outlined text fields (what
 * MUI's `TextField select` with a native select renders, without the menu it also imports).
 */
export function FormNativeSelectField<TValues extends FieldValues, TOutput extends FieldValues>({
  control,
  name,
  label,
  children,
  required,
  disabled,
}: FormNativeSelectFieldProps<TValues, TOutput>) {
  const { field, fieldState } = useController({ control, name });
  const id = useId();
  const message = fieldState.error?.message;
  const helperTextId = message ? `${id}-helper-text` : undefined;
  return (
    <FormControl
      variant="outlined"
      fullWidth
      margin="normal"
      required={required}
      disabled={disabled || field.disabled}
      error={Boolean(fieldState.error)}
    >
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <NativeSelect
        input={<OutlinedInput label={label} />}
        id={id}
        name={field.name}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        inputRef={field.ref}
        aria-describedby={helperTextId}
      >
        {children}
      </NativeSelect>
      {message ? <FormHelperText id={helperTextId}>{message}</FormHelperText> : null}
    </FormControl>
  );
}
