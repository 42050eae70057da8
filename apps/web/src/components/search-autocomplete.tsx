import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { SEARCH_MIN_LENGTH } from '@patientsim/domain/common/constants';
import { useState } from 'react';
import { useDebouncedTerm } from '../lib/use-debounced-term';

export type SearchAutocompleteProps<T> = {
  label: string;
  value: T | null;
  onChange: (value: T | null) => void;
  /** What the server found for the last term the field reported. */
  options: readonly T[];
  isLoading: boolean;
  /** Called 500 ms after typing stops, with a term of 3 or more characters, or '' (spec section 9). */
  onSearch: (term: string) => void;
  getOptionLabel: (option: T) => string;
  isOptionEqualToValue: (option: T, selected: T) => boolean;
  /** Shown when a long enough term found nothing. */
  noResultsText: string;
  /** Shown before a long enough term was typed. */
  promptText: string;
  disabled?: boolean;
};

/** Picks one thing the server searches for: 1–2 characters search nothing, and the helper text says why. */
export function SearchAutocomplete<T>({
  label,
  value,
  onChange,
  options,
  isLoading,
  onSearch,
  getOptionLabel,
  isOptionEqualToValue,
  noResultsText,
  promptText,
  disabled,
}: SearchAutocompleteProps<T>) {
  const [input, setInput] = useState('');
  const search = useDebouncedTerm(onSearch);
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
        search(next);
      }}
      options={options}
      // The server already filtered by the term.
      filterOptions={(found) => found}
      getOptionLabel={getOptionLabel}
      isOptionEqualToValue={isOptionEqualToValue}
      loading={isLoading}
      disabled={disabled}
      noOptionsText={trimmed.length >= SEARCH_MIN_LENGTH ? noResultsText : promptText}
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
