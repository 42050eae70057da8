import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Snackbar from '@mui/material/Snackbar';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { PAGE_SIZE_USERS } from '@patientsim/domain/common/constants';
import { pageCount } from '@patientsim/domain/common/page.schemas';
import type { GroupMember } from '@patientsim/domain/groups/group-management.schemas';
import { stripGroupPrefixes } from '@patientsim/domain/groups/group.schemas';
import { ROLE_LABEL } from '@patientsim/domain/roles/roles';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import type { DataTableColumn } from '../../../components/data-table';
import { EmptyState, NO_USERS_MESSAGE } from '../../../components/empty-state';
import { PersonSearchField } from '../../../components/person-search-field';
import { RowCards } from '../../../components/row-cards';
import { touchTargetSx, useIsPhone } from '../../../components/use-is-phone';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useAddGroupMembers } from '../api/add-group-members';
import { useRemoveGroupMembers } from '../api/remove-group-members';
import { useGroupMemberSearch } from '../api/search-group-members';

const fullName = (member: GroupMember) => [member.given_name, member.family_name].filter(Boolean).join(' ') || member.email;

/**
 * The members of a group inside an organisation, in pages by name; those who may edit the group add
 * members of the organisation (searched by e-mail or name) and remove members.
 */
export function GroupMembers({
  groupId,
  orgId,
  groupName,
  canEdit,
}: {
  groupId: string;
  orgId: string;
  groupName: string;
  canEdit: boolean;
}) {
  const [page, setPage] = useState(0);
  const members = useGroupMemberSearch(groupId, {
    inGroup: 'true',
    ...(page > 0 ? { offset: page * PAGE_SIZE_USERS } : {}),
    count: PAGE_SIZE_USERS,
  });
  const pages = pageCount(members.data?.total ?? 0, PAGE_SIZE_USERS);
  const [term, setTerm] = useState('');
  const candidates = useGroupMemberSearch(groupId, { term, inGroup: 'false' }, { enabled: canEdit && term.length > 0 });
  const [selected, setSelected] = useState<GroupMember | null>(null);
  const [removing, setRemoving] = useState<GroupMember | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const addMembers = useAddGroupMembers();
  const removeMembers = useRemoveGroupMembers();
  const isPhone = useIsPhone();
  const columns: DataTableColumn<GroupMember>[] = [
    { key: 'name', header: 'Name', render: fullName },
    {
      key: 'email',
      header: 'Email',
      render: (member) => (
        <Box component="span" sx={{ wordBreak: 'break-all' }}>
          {member.email}
        </Box>
      ),
    },
    { key: 'role', header: 'Role', render: (member) => ROLE_LABEL[member.role] },
    ...(canEdit
      ? [
          {
            key: 'actions',
            header: 'Actions',
            align: 'right',
            isRowActions: true,
            render: (member: GroupMember) => (
              <IconButton aria-label={`Remove ${fullName(member)} from the group`} onClick={() => setRemoving(member)}>
                <DeleteOutlineIcon />
              </IconButton>
            ),
          } satisfies DataTableColumn<GroupMember>,
        ]
      : []),
  ];

  return (
    <Box component="section" aria-labelledby="group-members-heading" sx={{ mt: 3 }}>
      <Typography id="group-members-heading" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
        Members
      </Typography>
      {canEdit ? (
        <Box
          component="form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!selected) return;
            addMembers.mutate(
              { groupId, orgId, userIds: [selected.user_id] },
              {
                onSuccess: () => {
                  setNotice(`${fullName(selected)} added to ${groupName}`);
                  setSelected(null);
                },
              },
            );
          }}
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mb: 2 }}
        >
          <Box sx={{ flex: '1 1 320px', maxWidth: 480 }}>
            <PersonSearchField
              label="Add a member of the organization"
              value={selected}
              onChange={setSelected}
              options={term ? (candidates.data?.users ?? []) : []}
              isLoading={candidates.isFetching}
              onSearch={setTerm}
              disabled={addMembers.isPending}
            />
          </Box>
          <Button type="submit" variant="contained" disabled={!selected} loading={addMembers.isPending} sx={{ mt: 1 }}>
            Add member
          </Button>
          {addMembers.error ? (
            <Alert severity="error" sx={{ flexBasis: '100%' }}>
              {stripGroupPrefixes(errorMessage(addMembers.error, UNKNOWN_ERROR_MESSAGE))}
            </Alert>
          ) : null}
        </Box>
      ) : null}

      {members.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void members.refetch()}>
              Retry
            </Button>
          }
        >
          An error occurred: {errorMessage(members.error, 'Unknown error')}
        </Alert>
      ) : members.isPending ? (
        <Box aria-busy="true" aria-label="Loading members">
          <Skeleton height={40} />
          <Skeleton height={40} />
        </Box>
      ) : (
        <>
          {members.isFetching ? <LinearProgress aria-label="Refreshing members" /> : null}
          {isPhone ? (
            <>
              <RowCards
                label={`Members of ${groupName}`}
                columns={columns}
                rows={members.data.users}
                getRowKey={(member) => member.user_id}
              />
              {members.data.users.length === 0 ? <EmptyState message={NO_USERS_MESSAGE} /> : null}
            </>
          ) : (
            <TableContainer>
              <Table size="small" aria-label={`Members of ${groupName}`} stickyHeader>
                <TableHead>
                  <TableRow>
                    {columns.map((column) => (
                      <TableCell key={column.key} align={column.align}>
                        {column.header}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {members.data.users.length === 0 ? (
                    <TableRow>
                      <TableCell colSpan={columns.length}>
                        <EmptyState message={NO_USERS_MESSAGE} />
                      </TableCell>
                    </TableRow>
                  ) : (
                    members.data.users.map((member) => (
                      <TableRow key={member.user_id}>
                        {columns.map((column) => (
                          <TableCell key={column.key} align={column.align}>
                            {column.render(member)}
                          </TableCell>
                        ))}
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          {pages > 1 ? (
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1, mt: 1 }}>
              <IconButton aria-label="Previous page" sx={touchTargetSx} disabled={page <= 0} onClick={() => setPage(page - 1)}>
                <ChevronLeftIcon />
              </IconButton>
              <Typography variant="body2" aria-live="polite">
                page {Math.min(page + 1, pages)} of {pages}
              </Typography>
              <IconButton
                aria-label="Next page"
                sx={touchTargetSx}
                disabled={page + 1 >= pages}
                onClick={() => setPage(page + 1)}
              >
                <ChevronRightIcon />
              </IconButton>
            </Box>
          ) : null}
        </>
      )}

      <ConfirmDialog
        isOpen={removing !== null}
        title="Remove member"
        confirmLabel="Remove"
        isPending={removeMembers.isPending}
        onCancel={() => {
          setRemoving(null);
          removeMembers.reset();
        }}
        onConfirm={() => {
          if (!removing) return;
          removeMembers.mutate(
            { groupId, orgId, userIds: [removing.user_id] },
            {
              onSuccess: () => {
                setNotice(`${fullName(removing)} removed from ${groupName}`);
                setRemoving(null);
              },
            },
          );
        }}
      >
        {removing ? (
          <>
            Remove <strong>{fullName(removing)}</strong> from {groupName}? They stay in the organization.
            {removeMembers.error ? (
              <Alert severity="error" sx={{ mt: 2 }}>
                {stripGroupPrefixes(errorMessage(removeMembers.error, UNKNOWN_ERROR_MESSAGE))}
              </Alert>
            ) : null}
          </>
        ) : null}
      </ConfirmDialog>
      <Snackbar open={notice !== null} autoHideDuration={4000} onClose={() => setNotice(null)} message={notice ?? ''} />
    </Box>
  );
}
