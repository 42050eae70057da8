import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { PAGE_SIZE_USERS } from '@patientsim/domain/common/constants';
import { ROLE_LABEL } from '@patientsim/domain/roles/roles';
import type { FoundUser } from '@patientsim/domain/users/users.schemas';
import { useState } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { ScreenHeader } from '../../../components/screen-header';
import { useCurrentUser } from '../../../lib/use-session';
import { useAllUsers } from '../api/search-all-users';
import { UserDetailsPanel } from '../components/user-details-panel';

const nameOf = (user: FoundUser) => [user.given_name, user.family_name].filter(Boolean).join(' ');

/**
 * /access/users: every user by e-mail or name (3 or more characters, 500 ms after typing stops),
 * deleted ones on request, in pages of PAGE_SIZE_USERS by name with the true count; a user's details, memberships and role, a change of organisation, and
 * deletion.
 */
export function AccessUsersRoute() {
  const actor = useCurrentUser();
  const [term, setTerm] = useState('');
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const users = useAllUsers({ term, includeDeleted, page });
  const rows = term ? (users.data?.users ?? []) : [];
  const total = term ? (users.data?.total ?? 0) : 0;
  // A new search or filter starts again from its first page.
  const changeTerm = (next: string) => {
    setTerm(next);
    setPage(0);
  };

  const columns: DataTableColumn<FoundUser>[] = [
    { key: 'name', header: 'Name', render: nameOf },
    { key: 'email', header: 'Email', render: (user) => user.email },
    { key: 'role', header: 'Role', render: (user) => ROLE_LABEL[user.role] },
    {
      key: 'status',
      header: 'Status',
      render: (user) => <Chip size="small" variant="outlined" label={user.deleted ? 'Deleted' : 'Active'} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      isRowActions: true,
      render: (user) => (
        <Button
          size="small"
          aria-label={`Details of ${nameOf(user) || user.email}`}
          aria-pressed={selected === user.user_id}
          onClick={() => setSelected(user.user_id)}
        >
          Details
        </Button>
      ),
    },
  ];

  return (
    <>
      <ScreenHeader title="Users" />
      <Stack spacing={2}>
        <FormControlLabel
          control={
            <Checkbox
              checked={includeDeleted}
              onChange={(event) => {
                setIncludeDeleted(event.target.checked);
                setPage(0);
              }}
            />
          }
          label="Include deleted users"
        />
        <DataTable
          label="Users"
          columns={columns}
          rows={rows}
          getRowKey={(user) => user.user_id}
          total={total}
          page={page}
          pageSize={PAGE_SIZE_USERS}
          onPageChange={setPage}
          onSearch={changeTerm}
          searchLabel="Search users by email or name"
          isLoading={users.isLoading}
          isFetching={users.isFetching}
          error={users.error}
          onRetry={() => void users.refetch()}
          emptyMessage={term ? 'No users to display' : 'Use the search bar to search for a user'}
        />
        {selected && actor ? <UserDetailsPanel key={selected} userId={selected} actorId={actor.id} /> : null}
      </Stack>
    </>
  );
}
