import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput from '@mui/material/OutlinedInput';
import { type ChangeEventHandler, type ReactNode, type Ref, useId } from 'react';

export type NativeSelectInputFieldProps = {
  name: string;
  label: ReactNode;
  value: string;
  onChange: ChangeEventHandler<HTMLSelectElement>;
  onBlur?: () => void;
  inputRef?: Ref<HTMLSelectElement>;
  /** The `<option>` elements. */
  children: ReactNode;
  /** The field's validation error; its message (if any) shows in red under the field. */
  error?: { message?: string } | undefined;
  required?: boolean;
  disabled?: boolean;
};

/**
 * A labelled native select drawn like the outlined text fields (what MUI's `TextField select`
 * with a native select renders, without the menu it also imports); the form owns its value
 * (`FormNativeSelectField` binds it to react-hook-form).
 */
export function NativeSelectInputField({
  name,
  label,
  value,
  onChange,
  onBlur,
  inputRef,
  children,
  error,
  required,
  disabled,
}: NativeSelectInputFieldProps) {
  const id = useId();
  const message = error?.message;
  const helperTextId = message ? `${id}-helper-text` : undefined;
  return (
    <FormControl variant="outlined" fullWidth margin="normal" required={required} disabled={disabled} error={Boolean(error)}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <NativeSelect
        input={<OutlinedInput label={label} />}
        id={id}
        name={name}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        inputRef={inputRef}
        aria-describedby={helperTextId}
      >
        {children}
      </NativeSelect>
      {message ? <FormHelperText id={helperTextId}>{message}</FormHelperText> : null}
    </FormControl>
  );
}
