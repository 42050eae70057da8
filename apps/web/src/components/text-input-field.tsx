import FormControl, { type FormControlProps } from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { type ChangeEventHandler, type HTMLInputTypeAttribute, type ReactNode, type Ref, useId } from 'react';

export type TextInputFieldProps = Pick<
  FormControlProps,
  'disabled' | 'fullWidth' | 'margin' | 'required' | 'size' | 'sx' | 'className'
> & {
  name: string;
  label: ReactNode;
  value: string;
  onChange: ChangeEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  /** The field's validation error; its message (if any) shows in red under the field. */
  error?: { message?: string } | undefined;
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
 * A labelled MUI outlined text field, its error in red under it; the form owns its value
 * (`FormTextField` binds it to react-hook-form).
 *
 * It renders what MUI's `TextField` renders for an outlined text input (form control, label,
 * outlined input, helper text, linked by ids), from those parts: `TextField` also imports the
 * select menu and its popover, modal and transitions, which the sign-in page would load for
 * nothing. Selects use `FormNativeSelectField` or MUI's `TextField select`.
 */
export function TextInputField({
  name,
  label,
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  type,
  autoComplete,
  autoFocus,
  placeholder,
  hint,
  renderError,
  slotProps,
  fullWidth = true,
  margin = 'normal',
  ...formControlProps
}: TextInputFieldProps) {
  const id = useId();
  const message = error?.message;
  const helperText = message ? (renderError ? renderError(message) : message) : hint;
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl {...formControlProps} variant="outlined" fullWidth={fullWidth} margin={margin} error={Boolean(error)}>
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
        name={name}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        inputRef={inputRef}
        aria-describedby={helperTextId}
      />
      {helperText ? <FormHelperText id={helperTextId}>{helperText}</FormHelperText> : null}
    </FormControl>
  );
}
