import MoreVert from '@mui/icons-material/MoreVert';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { canAssignRole, type Role } from '@patientsim/domain/roles/roles';
import type { OrgUser, OrgUsersVariant } from '@patientsim/domain/users/org-users.schemas';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { NO_USERS_MESSAGE } from '../../../components/empty-state';
import { externalPaths } from '../../../config/paths';
import { replyMessageOr } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/use-session';
import { useOrgUsers } from '../api/get-org-users';
import { useRemoveOrgUser } from '../api/remove-org-user';
import { useSignOutMember } from '../api/sign-out-member';
import { EditOrgUserDialog } from './edit-org-user-dialog';
import { orgUserName, orgUserStatus } from './org-user-status';
import { usePendingInviteActions } from './pending-invite-actions';

type Member = OrgUser & { user_id: string };

function isMember(user: OrgUser): user is Member {
  return user.user_id !== null && !user.pending && !user.declined;
}

/** The users of an organisation, in one of the three variants of the Users pages (spec section 2). */
export function OrgUsersTable({ orgId, variant, actorRole }: { orgId: string; variant: OrgUsersVariant; actorRole: Role }) {
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [signingOut, setSigningOut] = useState<Member | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const users = useOrgUsers({ orgId, variant, page, search });
  const remove = useRemoveOrgUser();
  const signOut = useSignOutMember();
  const actorId = useCurrentUser()?.id ?? null;
  const canRemove = hasPermission(actorRole, 'org:users:remove');
  // Not themself (their sessions are in their account) nor a provider account: the server refuses both.
  const canSignOut = (user: Member) =>
    hasPermission(actorRole, 'org:users:sign-out') &&
    canAssignRole(actorRole, user.role) &&
    user.user_id !== actorId &&
    !hasPermission(user.role, 'access:console');
  const canEdit = hasPermission(actorRole, 'org:users:edit');
  // Resend and revoke are the server's invite calls, under the same permission as inviting.
  const canManageInvites = hasPermission(actorRole, 'org:invite');
  const inviteActions = usePendingInviteActions(orgId);

  const columns: DataTableColumn<OrgUser>[] = [
    // An invitee has no name yet: the address stands for them.
    { key: 'name', header: 'Name', render: (user) => orgUserName(user) || user.email },
    { key: 'email', header: 'Email', render: (user) => user.email },
    {
      key: 'status',
      header: 'Status',
      render: (user) => <Chip size="small" label={orgUserStatus(user)} variant={user.deleted ? 'outlined' : 'filled'} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      isRowActions: true,
      render: (user) =>
        variant === 'archived' ? (
          user.user_id ? (
            <Link href={`${externalPaths.grades}?userId=${encodeURIComponent(user.user_id)}`}>Go to Grading</Link>
          ) : null
        ) : isMember(user) && !user.key_owner ? (
          <MemberActions
            user={user}
            canEdit={canEdit && canAssignRole(actorRole, user.role)}
            canRemove={canRemove && canAssignRole(actorRole, user.role)}
            canSignOut={canSignOut(user)}
            onEdit={() => setEditing(user)}
            onRemove={() => setRemoving(user)}
            onSignOut={() => {
              signOut.reset();
              setSigningOut(user);
            }}
          />
        ) : user.pending && !user.declined && canManageInvites ? (
          <RowMenu name={user.email}>{(close) => inviteActions.menuItems(user.email, close)}</RowMenu>
        ) : null,
    },
  ];

  return (
    <>
      {inviteActions.failure}
      <DataTable
        label="Users"
        columns={columns}
        rows={users.data?.items ?? []}
        getRowKey={(user) => user.user_id ?? `invite:${user.email}`}
        total={users.data?.total ?? 0}
        page={page}
        pageSize={users.data?.pageSize ?? 50}
        onPageChange={setPage}
        onSearch={(term) => {
          setSearch(term);
          setPage(0);
        }}
        searchLabel="Search users"
        isLoading={users.isLoading}
        isFetching={users.isFetching}
        error={users.error}
        onRetry={() => void users.refetch()}
        // The table lists the organisation before any search: empty means nobody matches.
        emptyMessage={NO_USERS_MESSAGE}
      />
      {editing ? (
        <EditOrgUserDialog
          orgId={orgId}
          user={editing}
          actorRole={actorRole}
          canEditRole={hasPermission(actorRole, 'org:users:edit-role')}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        isOpen={removing !== null}
        title="Remove user"
        confirmLabel="Remove"
        isPending={remove.isPending}
        onCancel={() => {
          remove.reset();
          setRemoving(null);
        }}
        onConfirm={() => {
          if (removing) remove.mutate({ orgId, userId: removing.user_id }, { onSuccess: () => setRemoving(null) });
        }}
      >
        {removing
          ? `Remove ${orgUserName(removing) || removing.email} from the organization? Their grades stay in the Grading Archive.`
          : null}
        {remove.error ? <span role="alert"> {remove.error.message}</span> : null}
      </ConfirmDialog>
      <ConfirmDialog
        isOpen={signingOut !== null}
        title="Sign out everywhere"
        confirmLabel="Sign out"
        isPending={signOut.isPending}
        onCancel={() => setSigningOut(null)}
        onConfirm={() => {
          if (!signingOut) return;
          const name = orgUserName(signingOut) || signingOut.email;
          signOut.mutate(
            { orgId, userId: signingOut.user_id },
            {
              onSuccess: () => {
                setSigningOut(null);
                setNotice(`${name} was signed out everywhere.`);
              },
            },
          );
        }}
      >
        {signingOut
          ? `Sign ${orgUserName(signingOut) || signingOut.email} out of PatientSim on every device? They will have to sign in again with their password.`
          : null}
        {signOut.error ? <span role="alert"> {replyMessageOr(signOut.error, 'Unknown error')}</span> : null}
      </ConfirmDialog>
      <Snackbar open={notice !== null} autoHideDuration={4000} onClose={() => setNotice(null)} message={notice ?? ''} />
      {inviteActions.dialogs}
    </>
  );
}

/** A row's one action menu, named after the row ("Actions for {name}"). */
function RowMenu({ name, children }: { name: string; children: (close: () => void) => ReactNode }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton aria-label={`Actions for ${name}`} aria-haspopup="menu" onClick={(event) => setAnchor(event.currentTarget)}>
        <MoreVert />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        {children(close)}
      </Menu>
    </>
  );
}

/** A member's actions: instructors see the menu, but only with what they may do (decision 3). */
function MemberActions({
  user,
  canEdit,
  canRemove,
  canSignOut,
  onEdit,
  onRemove,
  onSignOut,
}: {
  user: Member;
  canEdit: boolean;
  canRemove: boolean;
  canSignOut: boolean;
  onEdit: () => void;
  onRemove: () => void;
  onSignOut: () => void;
}) {
  return (
    <RowMenu name={orgUserName(user) || user.email}>
      {(close) => [
        <MenuItem
          key="edit"
          disabled={!canEdit}
          onClick={() => {
            close();
            onEdit();
          }}
        >
          Edit
        </MenuItem>,
        canRemove ? (
          <MenuItem
            key="remove"
            onClick={() => {
              close();
              onRemove();
            }}
          >
            Remove
          </MenuItem>
        ) : null,
        canSignOut ? (
          <MenuItem
            key="sign-out"
            onClick={() => {
              close();
              onSignOut();
            }}
          >
            Sign out everywhere
          </MenuItem>
        ) : null,
      ]}
    </RowMenu>
  );
}
