import FormControl, { type FormControlProps } from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { type HTMLInputTypeAttribute, type ReactNode, useId } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';

export type FormTextFieldProps<TValues extends FieldValues, TOutput extends FieldValues> = Pick<
  FormControlProps,
  'disabled' | 'fullWidth' | 'margin' | 'required' | 'size' | 'sx' | 'className'
> & {
  control: Control<TValues, unknown, TOutput>;
  name: Path<TValues>;
  label: ReactNode;
  type?: HTMLInputTypeAttribute;
  autoComplete?: string;
  autoFocus?: boolean;
  placeholder?: string;
  /** Shown under the field while it has no error. */
  hint?: ReactNode;
  /** Replaces the validation message for fields whose errors need richer text. */
  renderError?: (message: string) => ReactNode;
  /** Props of the outlined input (an end adornment, for example) and of its `<input>` element. */
  slotProps?: { input?: Partial<OutlinedInputProps>; htmlInput?: InputBaseComponentProps };
};

/**
 * A labelled MUI text field bound to react-hook-form; its error shows in red under the field.
 *
 * It renders what MUI's `TextField` renders for an outlined text input (form control, label,
 * outlined input, helper text, linked by ids), from those parts: `TextField` also imports the
 * select menu and its popover, modal and transitions, which the sign-in page would load for
 * nothing. Selects use `FormNativeSelectField` or MUI's `TextField select`.
 */
export function FormTextField<TValues extends FieldValues, TOutput extends FieldValues>({
  control,
  name,
  label,
  type,
  autoComplete,
  autoFocus,
  placeholder,
  hint,
  renderError,
  slotProps,
  disabled,
  fullWidth = true,
  margin = 'normal',
  ...formControlProps
}: FormTextFieldProps<TValues, TOutput>) {
  const { field, fieldState } = useController({ control, name });
  const id = useId();
  const message = fieldState.error?.message;
  const helperText = message ? (renderError ? renderError(message) : message) : hint;
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl
      {...formControlProps}
      variant="outlined"
      fullWidth={fullWidth}
      margin={margin}
      disabled={disabled || field.disabled}
      error={Boolean(fieldState.error)}
    >
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        {...slotProps?.input}
        {...(slotProps?.htmlInput ? { inputProps: slotProps.htmlInput } : {})}
        id={id}
        label={label}
        type={type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        placeholder={placeholder}
        name={field.name}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        inputRef={field.ref}
        aria-describedby={helperTextId}
      />
      {helperText ? <FormHelperText id={helperTextId}>{helperText}</FormHelperText> : null}
    </FormControl>
  );
}
