import type { Group } from '@patientsim/domain/groups/group.schemas';
import { useState } from 'react';
import { OrganisationSearchField } from '../../../components/organisation-search-field';
import { useOrganizations } from '../api/get-organizations';

/** Organisations offered per search. */
const OPTIONS_PAGE_SIZE = 20;

/** Picks an organisation by name: 1–2 characters search nothing; a search runs 500 ms after typing stops. */
export function OrganizationSearchField({
  label,
  value,
  onChange,
  excludedIds = [],
  disabled,
}: {
  label: string;
  value: Group | null;
  onChange: (value: Group | null) => void;
  /** Organisations not to offer (those the person is in already). */
  excludedIds?: readonly string[];
  disabled?: boolean;
}) {
  const [term, setTerm] = useState('');
  const found = useOrganizations({ page: 0, search: term, pageSize: OPTIONS_PAGE_SIZE }, { enabled: term.length > 0 });
  const options = term ? (found.data?.items ?? []).filter((org) => !excludedIds.includes(org._id)) : [];
  return (
    <OrganisationSearchField
      label={label}
      value={value}
      onChange={onChange}
      options={options}
      isLoading={found.isFetching}
      onSearch={setTerm}
      disabled={disabled ?? false}
    />
  );
}
