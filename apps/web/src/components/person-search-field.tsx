import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_LENGTH } from '@patientsim/domain/common/constants';
import { useRef, useState } from 'react';

export type Person = { user_id: string; email: string; given_name: string; family_name: string };

/** "Given Family (e-mail)", or the e-mail alone when the person has no names. */
export function personLabel(person: Person): string {
  const name = [person.given_name, person.family_name].filter(Boolean).join(' ');
  return name ? `${name} (${person.email})` : person.email;
}

export type PersonSearchFieldProps<T extends Person> = {
  label: string;
  value: T | null;
  onChange: (value: T | null) => void;
  /** The people found for the last term the field reported. */
  options: readonly T[];
  isLoading: boolean;
  /** Called 500 ms after typing stops, with a term of 3 or more characters, or '' (spec section 9). */
  onSearch: (term: string) => void;
  disabled?: boolean;
};

/** Picks a person by e-mail or name: 1–2 characters search nothing, and the helper text says why. */
export function PersonSearchField<T extends Person>({
  label,
  value,
  onChange,
  options,
  isLoading,
  onSearch,
  disabled,
}: PersonSearchFieldProps<T>) {
  const [input, setInput] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const trimmed = input.trim();
  const isTooShort = trimmed.length > 0 && trimmed.length < SEARCH_MIN_LENGTH;
  return (
    <Autocomplete
      value={value}
      onChange={(_event, next) => onChange(next)}
      inputValue={input}
      onInputChange={(_event, next, reason) => {
        setInput(next);
        if (reason === 'reset') return;
        if (timer.current) clearTimeout(timer.current);
        const term = next.trim();
        timer.current = setTimeout(() => onSearch(term.length >= SEARCH_MIN_LENGTH ? term : ''), SEARCH_DEBOUNCE_MS);
      }}
      options={options}
      // The server already filtered by the term.
      filterOptions={(found) => found}
      getOptionLabel={personLabel}
      isOptionEqualToValue={(option, selected) => option.user_id === selected.user_id}
      loading={isLoading}
      disabled={disabled}
      noOptionsText={trimmed.length >= SEARCH_MIN_LENGTH ? 'No users to display' : 'Use the search bar to search for a user'}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          helperText={isTooShort ? `Type at least ${SEARCH_MIN_LENGTH} characters to search` : ' '}
        />
      )}
    />
  );
}
