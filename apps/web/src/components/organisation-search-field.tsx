import { type Group, displayGroupName } from '@patientsim/domain/groups/group.schemas';
import { SearchAutocomplete, type SearchAutocompleteProps } from './search-autocomplete';

export type OrganisationSearchFieldProps = Omit<
  SearchAutocompleteProps<Group>,
  'getOptionLabel' | 'isOptionEqualToValue' | 'noResultsText' | 'promptText'
>;

/** Picks an organisation by name: 1–2 characters search nothing, and the helper text says why. */
export function OrganisationSearchField(props: OrganisationSearchFieldProps) {
  return (
    <SearchAutocomplete
      {...props}
      getOptionLabel={(group) => displayGroupName(group.name)}
      isOptionEqualToValue={(option, selected) => option._id === selected._id}
      noResultsText="No organizations to display"
      promptText="Type a name to search"
    />
  );
}
