import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { useState } from 'react';
import { TextInputField, type TextInputFieldProps } from './text-input-field';

export type PasswordInputFieldProps = Omit<TextInputFieldProps, 'type'>;

/** A password field with a show/hide button; the form owns its value (`FormPasswordField` binds it to react-hook-form). */
export function PasswordInputField(props: PasswordInputFieldProps) {
  const [isVisible, setIsVisible] = useState(false);
  const label = typeof props.label === 'string' ? props.label.toLowerCase() : 'password';
  return (
    <TextInputField
      {...props}
      type={isVisible ? 'text' : 'password'}
      slotProps={{
        ...props.slotProps,
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={isVisible ? `Hide ${label}` : `Show ${label}`}
                aria-pressed={isVisible}
                onClick={() => setIsVisible((visible) => !visible)}
                edge="end"
              >
                {isVisible ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
