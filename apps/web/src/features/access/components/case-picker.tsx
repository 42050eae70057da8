import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { CaseEnvironmentName, FoundCase } from '@patientsim/domain/cases/case-copy.schemas';
import { SEARCH_MIN_LENGTH } from '@patientsim/domain/common/constants';
import { useState } from 'react';
import { SearchAutocomplete } from '../../../components/search-autocomplete';
import { useDebouncedTerm } from '../../../lib/use-debounced-term';
import { useCaseSearch } from '../api/case-tool';

/** A found case as the pickers show it: its name, its organisation and its id (names repeat across libraries). */
export function caseLabel(found: FoundCase): string {
  return `${found.name} · ${found.organisation ?? 'no organization'} · ${found.id}`;
}

const PROMPT = 'Type a name, or paste a case id';

/** Picks several cases of one environment by name (or id), searched on that environment's server. */
export function CasesPicker({
  env,
  label,
  value,
  onChange,
  disabled,
  error,
}: {
  env: CaseEnvironmentName | '';
  label: string;
  value: FoundCase[];
  onChange: (value: FoundCase[]) => void;
  disabled?: boolean;
  error?: string | null;
}) {
  const [input, setInput] = useState('');
  const [term, setTerm] = useState('');
  const search = useDebouncedTerm(setTerm);
  const found = useCaseSearch(env, term);
  const trimmed = input.trim();
  const isTooShort = trimmed.length > 0 && trimmed.length < SEARCH_MIN_LENGTH;
  const helper = error ?? (isTooShort ? `Type at least ${SEARCH_MIN_LENGTH} characters to search` : env === '' ? ' ' : PROMPT);
  return (
    <Autocomplete
      multiple
      value={value}
      onChange={(_event, next) => onChange(next)}
      inputValue={input}
      onInputChange={(_event, next, reason) => {
        setInput(next);
        if (reason === 'reset') return;
        search(next);
      }}
      options={found.data ?? []}
      // The server already filtered by the term.
      filterOptions={(options) => options}
      getOptionLabel={caseLabel}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      loading={found.isFetching}
      disabled={disabled ?? false}
      noOptionsText={found.isError ? found.error.message : trimmed.length >= SEARCH_MIN_LENGTH ? 'No cases to display' : PROMPT}
      renderInput={(params) => <TextField {...params} label={label} error={Boolean(error)} helperText={helper} />}
    />
  );
}

/** Picks one case of one environment by name (or id). */
export function CasePicker({
  env,
  label,
  value,
  onChange,
}: {
  env: CaseEnvironmentName | '';
  label: string;
  value: FoundCase | null;
  onChange: (value: FoundCase | null) => void;
}) {
  const [term, setTerm] = useState('');
  const found = useCaseSearch(env, term);
  return (
    <SearchAutocomplete
      label={label}
      value={value}
      onChange={onChange}
      options={found.data ?? []}
      isLoading={found.isFetching}
      onSearch={setTerm}
      getOptionLabel={caseLabel}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      noResultsText={found.isError ? found.error.message : 'No cases to display'}
      promptText={PROMPT}
      disabled={env === ''}
    />
  );
}
