import { zodResolver } from '@hookform/resolvers/zod';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import { PAGE_SIZE_USERS } from '@patientsim/domain/common/constants';
import { type GroupMember, GroupIdsBodySchema } from '@patientsim/domain/groups/group-management.schemas';
import { stripGroupPrefixes } from '@patientsim/domain/groups/group.schemas';
import { ROLE_LABEL } from '@patientsim/domain/roles/roles';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { NO_USERS_MESSAGE } from '../../../components/empty-state';
import { PersonSearchField } from '../../../components/person-search-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useAddGroupMembers } from '../api/add-group-members';
import { useRemoveGroupMembers } from '../api/remove-group-members';
import { useGroupMemberSearch } from '../api/search-group-members';

/** The member chosen in the search field, sent as the server's list of user ids. */
const AddMemberFormSchema = z.object({
  member: z
    .custom<GroupMember>()
    .nullable()
    .transform((member) => (member ? [member.user_id] : []))
    .pipe(GroupIdsBodySchema),
});
type AddMemberFormInput = z.input<typeof AddMemberFormSchema>;
type AddMemberFormValues = z.output<typeof AddMemberFormSchema>;

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
  const [term, setTerm] = useState('');
  const candidates = useGroupMemberSearch(groupId, { term, inGroup: 'false' }, { enabled: canEdit && term.length > 0 });
  const { control, handleSubmit, reset } = useForm<AddMemberFormInput, unknown, AddMemberFormValues>({
    resolver: zodResolver(AddMemberFormSchema),
    defaultValues: { member: null },
  });
  const selected = useWatch({ control, name: 'member' });
  const [removing, setRemoving] = useState<GroupMember | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const addMembers = useAddGroupMembers();
  const removeMembers = useRemoveGroupMembers();
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
          onSubmit={handleSubmit(({ member: userIds }) => {
            const added = selected;
            addMembers.mutate(
              { groupId, orgId, userIds },
              {
                onSuccess: () => {
                  if (added) setNotice(`${fullName(added)} added to ${groupName}`);
                  reset();
                },
              },
            );
          })}
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mb: 2 }}
        >
          <Box sx={{ flex: '1 1 320px', maxWidth: 480 }}>
            <Controller
              control={control}
              name="member"
              render={({ field }) => (
                <PersonSearchField
                  label="Add a member of the organization"
                  value={field.value}
                  onChange={field.onChange}
                  options={term ? (candidates.data?.users ?? []) : []}
                  isLoading={candidates.isFetching}
                  onSearch={setTerm}
                  disabled={addMembers.isPending}
                />
              )}
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

      <DataTable
        label={`Members of ${groupName}`}
        columns={columns}
        rows={members.data?.users ?? []}
        getRowKey={(member) => member.user_id}
        total={members.data?.total ?? 0}
        page={page}
        pageSize={PAGE_SIZE_USERS}
        onPageChange={setPage}
        isLoading={members.isPending}
        isFetching={members.isFetching}
        error={members.error}
        onRetry={() => void members.refetch()}
        emptyMessage={NO_USERS_MESSAGE}
      />

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
