import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlinedIcon from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Snackbar from '@mui/material/Snackbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type Group, displayGroupName, parseGroupMetadata, stripGroupPrefixes } from '@patientsim/domain/groups/group.schemas';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { RouterLink } from '../../../components/router-link';
import { paths } from '../../../config/paths';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import type { CurrentUser } from '../../../lib/current-user';
import { useCreateGroup } from '../api/create-group';
import { useDeleteGroup } from '../api/delete-group';
import { useGroupAdmin } from '../api/get-group-admin';
import { useNestedGroups } from '../api/get-nested-groups';
import { useOwnSubgroups } from '../api/get-own-groups';
import { useRenameGroup } from '../api/rename-group';
import { GroupNameDialog } from './group-name-dialog';

/** Remembered per browser: testing groups stay hidden until the user asks for them. */
const DISPLAY_TEST_ORGS_KEY = 'patientsim.groups.displayTestOrgs';

function readDisplayTestOrgs(): boolean {
  try {
    return window.localStorage.getItem(DISPLAY_TEST_ORGS_KEY) === 'true';
  } catch {
    return false;
  }
}

function writeDisplayTestOrgs(value: boolean) {
  try {
    window.localStorage.setItem(DISPLAY_TEST_ORGS_KEY, String(value));
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
}

type Row = { group: Group; name: string; memberCount: number; ownerId: string | null; parent: string | null; isTesting: boolean };

function toRow(group: Group): Row {
  const metadata = parseGroupMetadata(group);
  return {
    group,
    name: displayGroupName(group.name),
    memberCount: metadata?.memberCount ?? 0,
    ownerId: metadata?.ownerId ?? null,
    parent: metadata?.parent ?? null,
    isTesting: metadata?.testing ?? false,
  };
}

function GroupAdminCell({ groupId }: { groupId: string }) {
  const { data, isPending, isError } = useGroupAdmin(groupId);
  if (isPending) return <Skeleton width={120} />;
  if (isError || !data) return <>—</>;
  const name = [data.given_name, data.family_name].filter(Boolean).join(' ');
  return <>{name || data.email || '—'}</>;
}

type Dialog = { kind: 'create' } | { kind: 'rename'; row: Row } | { kind: 'remove'; row: Row } | null;

/**
 * The groups a user sees (spec section 6): admins and super admins the groups of their active
 * organisation (or of `orgId`, for the provider), others their own groups that have a parent.
 * Rename and remove for admins or the group's key owner; create for those who manage groups.
 */
export function GroupsPanel({ user, orgId: shownOrgId }: { user: CurrentUser; orgId?: string }) {
  // The provider's organisation details show the groups of the organisation they open.
  const orgId = shownOrgId ?? user.activeOrg?.id ?? null;
  const seesOrganisation = hasPermission(user.role, 'org:groups:read') && orgId !== null;
  const nested = useNestedGroups(orgId ?? '', { enabled: seesOrganisation });
  const own = useOwnSubgroups(user.id, { enabled: !seesOrganisation });
  const query = seesOrganisation ? nested : own;
  const [displayTestOrgs, setDisplayTestOrgs] = useState(readDisplayTestOrgs);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const createGroup = useCreateGroup();
  const renameGroup = useRenameGroup();
  const deleteGroup = useDeleteGroup();

  const canCreate = orgId !== null && hasPermission(user.role, 'org:groups:manage');
  const canEdit = (row: Row) => hasPermission(user.role, 'org:groups:manage') || row.ownerId === user.id;
  const rows = (query.data ?? []).map(toRow).filter((row) => displayTestOrgs || !row.isTesting);
  const columns: DataTableColumn<Row>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (row) => (
        <>
          <RouterLink to={paths.groupDetails(row.group._id)}>{row.name}</RouterLink>
          {row.isTesting ? (
            <Typography component="span" variant="body2" sx={{ ml: 1, color: 'text.secondary' }}>
              (test)
            </Typography>
          ) : null}
        </>
      ),
    },
    { key: 'members', header: 'Members', align: 'right', render: (row) => row.memberCount },
    { key: 'admin', header: 'Group admin', render: (row) => <GroupAdminCell groupId={row.group._id} /> },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      isRowActions: true,
      render: (row) =>
        canEdit(row) ? (
          <Box sx={{ whiteSpace: 'nowrap' }}>
            <Tooltip title="Rename">
              <IconButton aria-label={`Rename ${row.name}`} onClick={() => setDialog({ kind: 'rename', row })}>
                <EditOutlinedIcon />
              </IconButton>
            </Tooltip>
            <Tooltip title="Remove">
              <IconButton aria-label={`Remove ${row.name}`} onClick={() => setDialog({ kind: 'remove', row })}>
                <DeleteOutlineIcon />
              </IconButton>
            </Tooltip>
          </Box>
        ) : null,
    },
  ];

  const close = () => {
    setDialog(null);
    createGroup.reset();
    renameGroup.reset();
    deleteGroup.reset();
  };

  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 2 }}>
        <FormControlLabel
          control={
            <Checkbox
              checked={displayTestOrgs}
              onChange={(event) => {
                setDisplayTestOrgs(event.target.checked);
                writeDisplayTestOrgs(event.target.checked);
              }}
            />
          }
          label="Display Test Orgs"
        />
        {canCreate ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'create' })} sx={{ ml: 'auto' }}>
            Create group
          </Button>
        ) : null}
      </Box>

      <DataTable
        label="Groups"
        columns={columns}
        rows={rows}
        getRowKey={(row) => row.group._id}
        isLoading={query.isPending}
        isFetching={query.isFetching}
        error={query.error}
        onRetry={() => void query.refetch()}
        emptyMessage="No groups to display"
      />

      {dialog?.kind === 'create' && orgId ? (
        <GroupNameDialog
          title="Create group"
          confirmLabel="Create"
          isPending={createGroup.isPending}
          error={createGroup.error}
          onCancel={close}
          onSubmit={(name) =>
            createGroup.mutate(
              { orgId, name },
              {
                onSuccess: (group) => {
                  close();
                  setNotice(`Group ${displayGroupName(group.name)} created`);
                },
              },
            )
          }
        />
      ) : null}
      {dialog?.kind === 'rename' ? (
        <GroupNameDialog
          title={`Rename ${dialog.row.name}`}
          confirmLabel="Save"
          initialName={dialog.row.name}
          isPending={renameGroup.isPending}
          error={renameGroup.error}
          onCancel={close}
          onSubmit={(name) =>
            renameGroup.mutate(
              { groupId: dialog.row.group._id, orgId: dialog.row.parent ?? '', name },
              {
                onSuccess: (group) => {
                  close();
                  setNotice(`Group renamed to ${displayGroupName(group.name)}`);
                },
              },
            )
          }
        />
      ) : null}
      <ConfirmDialog
        isOpen={dialog?.kind === 'remove'}
        title="Remove group"
        confirmLabel="Remove"
        isPending={deleteGroup.isPending}
        onCancel={close}
        onConfirm={() => {
          if (dialog?.kind !== 'remove') return;
          const { row } = dialog;
          deleteGroup.mutate(
            { groupId: row.group._id, orgId: row.parent ?? '' },
            {
              onSuccess: () => {
                close();
                setNotice(`Group ${row.name} removed`);
              },
            },
          );
        }}
      >
        {dialog?.kind === 'remove' ? (
          <>
            Remove the group <strong>{dialog.row.name}</strong>? Its members stay in the organization.
            {deleteGroup.error ? (
              <Alert severity="error" sx={{ mt: 2 }}>
                {stripGroupPrefixes(errorMessage(deleteGroup.error, UNKNOWN_ERROR_MESSAGE))}
              </Alert>
            ) : null}
          </>
        ) : null}
      </ConfirmDialog>
      <Snackbar open={notice !== null} autoHideDuration={4000} onClose={() => setNotice(null)} message={notice ?? ''} />
    </Box>
  );
}
