import { SearchAutocompleteField, type SearchAutocompleteFieldProps } from './search-autocomplete-field';

export type Person = { user_id: string; email: string; given_name: string; family_name: string };

/** "Given Family (e-mail)", or the e-mail alone when the person has no names. */
export function personLabel(person: Person): string {
  const name = [person.given_name, person.family_name].filter(Boolean).join(' ');
  return name ? `${name} (${person.email})` : person.email;
}

export type PersonSearchFieldProps<T extends Person> = Omit<
  SearchAutocompleteFieldProps<T>,
  'getOptionLabel' | 'isOptionEqualToValue' | 'noOptionsText'
>;

/** Picks a person by e-mail or name: 1–2 characters search nothing, and the helper text says why. */
export function PersonSearchField<T extends Person>(props: PersonSearchFieldProps<T>) {
  return (
    <SearchAutocompleteField
      {...props}
      getOptionLabel={personLabel}
      isOptionEqualToValue={(option, selected) => option.user_id === selected.user_id}
      noOptionsText={{ noMatch: 'No users to display', beforeSearch: 'Use the search bar to search for a user' }}
    />
  );
}
