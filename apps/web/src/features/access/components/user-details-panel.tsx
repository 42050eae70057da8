import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Snackbar from '@mui/material/Snackbar';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { displayGroupName, parseGroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { PRODUCT_TYPE_LABEL } from '@patientsim/domain/product/product-types';
import { ROLE_LABEL } from '@patientsim/domain/roles/roles';
import type { UserMembership } from '@patientsim/domain/users/users.schemas';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import type { DataTableColumn } from '../../../components/data-table';
import { RouterLink } from '../../../components/router-link';
import { RowCards } from '../../../components/row-cards';
import { useIsPhone } from '../../../components/use-is-phone';
import { paths } from '../../../config/paths';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useDeleteUser } from '../api/delete-user';
import { useUserDetails } from '../api/get-user-details';
import { MoveUserDialog } from './move-user-dialog';

/** 'Key Owner' (or 'Group Admin' of a group), 'Removed', else 'Member'. */
function membershipStatus(row: UserMembership, isGroup: boolean): string {
  if (row.removed_at) return 'Removed';
  if (row.key_owner) return isGroup ? 'Group Admin' : 'Key Owner';
  return 'Member';
}

/** A user's memberships: a table, or cards on a phone. */
function MembershipsTable({
  label,
  memberships,
  activeOrg,
}: {
  label: string;
  memberships: readonly UserMembership[];
  activeOrg: string | null;
}) {
  const isPhone = useIsPhone();
  const columns: DataTableColumn<UserMembership>[] = [
    {
      key: 'group',
      header: 'Organization or group',
      render: (row) => (
        <>
          {parseGroupMetadata(row.group)?.parent ? (
            `${displayGroupName(row.group.name)} (group)`
          ) : (
            <RouterLink to={paths.organizationDetails(row.group._id)}>{row.group.name}</RouterLink>
          )}
          {row.group._id === activeOrg && row.removed_at === null ? ' (active)' : null}
        </>
      ),
    },
    { key: 'role', header: 'Role', render: (row) => ROLE_LABEL[row.role] },
    {
      key: 'status',
      header: 'Status',
      render: (row) => (
        <Chip size="small" variant="outlined" label={membershipStatus(row, Boolean(parseGroupMetadata(row.group)?.parent))} />
      ),
    },
  ];
  if (isPhone) return <RowCards label={label} columns={columns} rows={memberships} getRowKey={(row) => row.group._id} />;
  return (
    <TableContainer>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.key}>{column.header}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {memberships.map((row) => (
            <TableRow key={row.group._id}>
              {columns.map((column) => (
                <TableCell key={column.key}>{column.render(row)}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** One user for the provider: account, memberships and role, change of organisation, deletion. */
export function UserDetailsPanel({ userId, actorId }: { userId: string; actorId: string }) {
  const titleId = useId();
  const details = useUserDetails(userId);
  const remove = useDeleteUser();
  const [dialog, setDialog] = useState<'move' | 'delete' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (details.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void details.refetch()}>
            Retry
          </Button>
        }
      >
        An error occurred: {errorMessage(details.error, 'Unknown error')}
      </Alert>
    );
  }
  if (details.isPending) return <Skeleton variant="rounded" height={240} aria-label="Loading the user" />;
  const { user, memberships } = details.data;
  const name = [user.given_name, user.family_name].filter(Boolean).join(' ') || user.email;
  const ownsAnOrganisation = memberships.some(
    (row) => row.key_owner && row.removed_at === null && !parseGroupMetadata(row.group)?.parent,
  );

  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}>
          <Typography id={titleId} variant="h2" sx={{ fontSize: '1.25rem', mr: 'auto' }}>
            {name}
          </Typography>
          <Button variant="outlined" disabled={user.deleted} onClick={() => setDialog('move')}>
            Change organization
          </Button>
          <Button
            variant="outlined"
            color="error"
            disabled={user.deleted || user.user_id === actorId}
            onClick={() => {
              remove.reset();
              setDialog('delete');
            }}
          >
            Delete user
          </Button>
        </Box>
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0, mb: 2 }}
        >
          <Typography component="dt">Email</Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {user.email} {user.email_verified ? '' : '(not verified)'}
          </Typography>
          <Typography component="dt">Role</Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {ROLE_LABEL[user.role]}
          </Typography>
          <Typography component="dt">Product type</Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {PRODUCT_TYPE_LABEL[user.productType]}
          </Typography>
          <Typography component="dt">Status</Typography>
          <Box component="dd" sx={{ m: 0 }}>
            <Chip size="small" variant="outlined" label={user.deleted ? 'Deleted' : 'Active'} />
          </Box>
          <Typography component="dt">Created</Typography>
          <Typography component="dd" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
            {user.created_at.slice(0, 10)}
          </Typography>
        </Box>
        <Typography variant="h3" sx={{ fontSize: '1.1rem', mb: 1 }}>
          Memberships
        </Typography>
        {memberships.length === 0 ? (
          <Typography color="text.secondary">Not a member of any organization.</Typography>
        ) : (
          <MembershipsTable label={`Memberships of ${name}`} memberships={memberships} activeOrg={user.activeOrg} />
        )}
      </CardContent>
      {dialog === 'move' ? (
        <MoveUserDialog
          details={details.data}
          onClose={() => setDialog(null)}
          onMoved={(message) => {
            setDialog(null);
            setNotice(message);
          }}
        />
      ) : null}
      <ConfirmDialog
        isOpen={dialog === 'delete'}
        title="Delete user"
        confirmLabel="Delete"
        isPending={remove.isPending}
        isConfirmDisabled={ownsAnOrganisation}
        onCancel={() => setDialog(null)}
        onConfirm={() =>
          remove.mutate(userId, {
            onSuccess: () => {
              setDialog(null);
              setNotice(`${name} was deleted.`);
            },
          })
        }
      >
        {ownsAnOrganisation
          ? `${name} is the key owner of an organization and cannot be deleted. Choose another key owner first.`
          : `Delete ${name}? They can no longer sign in and are removed from their organizations. Their account is archived, not erased: their grades stay in each organization's Grading Archive.`}
        {remove.error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(remove.error, UNKNOWN_ERROR_MESSAGE)}
          </Alert>
        ) : null}
      </ConfirmDialog>
      <Snackbar open={notice !== null} autoHideDuration={6000} onClose={() => setNotice(null)} message={notice ?? ''} />
    </Card>
  );
}
