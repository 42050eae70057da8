import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { type Group, parseGroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { describeSeatBreakdown, seatFiguresIn } from '@patientsim/domain/groups/seats';
import { PRODUCT_TYPE_LABEL } from '@patientsim/domain/product/product-types';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { RouterLink } from '../../../components/router-link';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../config/paths';
import { useOrganizations } from '../api/get-organizations';
import { CreateOrganizationDialog } from '../components/create-organization-dialog';

const columns: DataTableColumn<Group>[] = [
  { key: 'name', header: 'Name', render: (org) => <RouterLink to={paths.organizationDetails(org._id)}>{org.name}</RouterLink> },
  {
    key: 'productType',
    header: 'Product type',
    render: (org) => {
      const metadata = parseGroupMetadata(org);
      return metadata ? PRODUCT_TYPE_LABEL[metadata.productType] : '—';
    },
  },
  {
    key: 'seats',
    header: 'Seats used',
    render: (org) => {
      const metadata = parseGroupMetadata(org);
      // The figures the server enforces (decision 0035), as the org profile and the invite dialogs show them.
      const figures = metadata ? seatFiguresIn(metadata) : null;
      return figures ? (
        <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          <Box component="span" sx={{ display: 'block' }}>{`${figures.used} of ${figures.seats}`}</Box>
          <Box component="span" sx={{ display: 'block', typography: 'body2', color: 'text.secondary' }}>
            {describeSeatBreakdown(figures)}
          </Box>
        </Box>
      ) : (
        '—'
      );
    },
  },
  {
    key: 'status',
    header: 'Status',
    render: (org) => {
      const isInactive = parseGroupMetadata(org)?.inactive ?? false;
      return (
        <Chip
          size="small"
          variant="outlined"
          color={isInactive ? 'default' : 'success'}
          label={isInactive ? 'Inactive' : 'Active'}
        />
      );
    },
  },
];

/** /access/organizations: every organisation, with search, and a new customer organisation with its key owner. */
export function OrganizationsRoute() {
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const [isCreating, setIsCreating] = useState(false);
  const navigate = useNavigate();
  const organizations = useOrganizations({ page, search });
  return (
    <>
      <ScreenHeader title="Organizations" />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setIsCreating(true)}>
          Create organization
        </Button>
      </Box>
      <DataTable
        label="Organizations"
        columns={columns}
        rows={organizations.data?.items ?? []}
        getRowKey={(org) => org._id}
        total={organizations.data?.total ?? 0}
        page={page}
        pageSize={organizations.data?.pageSize ?? 50}
        onPageChange={setPage}
        onSearch={(term) => {
          setSearch(term);
          setPage(0);
        }}
        searchLabel="Search organizations"
        isLoading={organizations.isLoading}
        isFetching={organizations.isFetching}
        error={organizations.error}
        onRetry={() => void organizations.refetch()}
        emptyMessage="No organizations to display"
      />
      <CreateOrganizationDialog
        isOpen={isCreating}
        onClose={() => setIsCreating(false)}
        onCreated={(organization, keyOwnerEmail) => {
          setIsCreating(false);
          // The details page says what happened: this page is left.
          void navigate(paths.organizationDetails(organization._id), {
            state: { notice: `${organization.name} was created and ${keyOwnerEmail} was invited as its key owner.` },
          });
        }}
      />
    </>
  );
}
