import { type Group, displayGroupName } from '@patientsim/domain/groups/group.schemas';
import { SearchAutocompleteField, type SearchAutocompleteFieldProps } from './search-autocomplete-field';

export type OrganisationSearchFieldProps = Omit<
  SearchAutocompleteFieldProps<Group>,
  'getOptionLabel' | 'isOptionEqualToValue' | 'noOptionsText'
>;

/** Picks an organisation by name: 1–2 characters search nothing, and the helper text says why. */
export function OrganisationSearchField(props: OrganisationSearchFieldProps) {
  return (
    <SearchAutocompleteField
      {...props}
      getOptionLabel={(group) => displayGroupName(group.name)}
      isOptionEqualToValue={(option, selected) => option._id === selected._id}
      noOptionsText={{ noMatch: 'No organizations to display', beforeSearch: 'Type a name to search' }}
    />
  );
}
