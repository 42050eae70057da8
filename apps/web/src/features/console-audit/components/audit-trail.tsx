import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AUDIT_ACTION_LABELS, type AuditEvent, auditActionLabel } from '@patientsim/domain/audit/audit.schemas';
import type { Group } from '@patientsim/domain/groups/group.schemas';
import type { FoundUser } from '@patientsim/domain/users/users.schemas';
import { useState } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { OrganisationSearchField } from '../../../components/organisation-search-field';
import { PersonSearchField } from '../../../components/person-search-field';
import { useOrganisationSearch } from '../../../lib/organisation-search';
import { useUserSearch } from '../../../lib/user-search';
import { type AuditScope, useAuditEvents } from '../api/get-audit-events';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const person = (value: AuditEvent['actor']) => (value ? `${value.name} (${value.email})` : '');

const COLUMNS: readonly DataTableColumn<AuditEvent>[] = [
  { key: 'time', header: 'Time', render: (row) => dateTime.format(new Date(row.createdAt)) },
  { key: 'who', header: 'Who', render: (row) => person(row.actor) },
  { key: 'viewing-as', header: 'Viewing as', render: (row) => person(row.viewingAs) },
  { key: 'action', header: 'Action', render: (row) => auditActionLabel(row.action) },
  { key: 'target', header: 'Target', render: (row) => (row.target ? (row.target.label ?? row.target.id) : '') },
  { key: 'organisation', header: 'Organization', render: (row) => row.organisation?.name ?? '' },
  { key: 'reason', header: 'Reason', render: (row) => row.reason ?? '' },
];

const ACTIONS = Object.entries(AUDIT_ACTION_LABELS).sort(([, a], [, b]) => a.localeCompare(b));

export type AuditTrailProps = {
  /** The provider's trail (every organisation, with an organisation filter) or one organisation's. */
  organisationId: string | null;
};

/**
 * The audit trail: who did what, on whose view when viewing the product as a user, to what, where
 * and when; newest first, filtered by organisation (the provider's trail), actor and action.
 */
export function AuditTrail({ organisationId }: AuditTrailProps) {
  const isProvider = organisationId === null;
  const [organisation, setOrganisation] = useState<Group | null>(null);
  const [orgTerm, setOrgTerm] = useState('');
  const [actor, setActor] = useState<FoundUser | null>(null);
  const [actorTerm, setActorTerm] = useState('');
  const [action, setAction] = useState('');
  const [page, setPage] = useState(0);
  const organisations = useOrganisationSearch(isProvider ? orgTerm : '');
  const actors = useUserSearch(actorTerm, organisationId);
  const scope: AuditScope = isProvider
    ? { kind: 'all', orgId: organisation?._id ?? null }
    : { kind: 'organisation', orgId: organisationId };
  const events = useAuditEvents(scope, { actorId: actor?.user_id ?? null, action: action || null }, page);
  const columns = isProvider ? COLUMNS : COLUMNS.filter((column) => column.key !== 'organisation');

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ '& > *': { flex: 1, minWidth: 0 } }}>
        {isProvider ? (
          <OrganisationSearchField
            label="Organization"
            value={organisation}
            onChange={(next) => {
              setOrganisation(next);
              setPage(0);
            }}
            options={organisations.data ?? []}
            isLoading={organisations.isFetching}
            onSearch={setOrgTerm}
          />
        ) : null}
        <PersonSearchField
          label="Actor"
          value={actor}
          onChange={(next) => {
            setActor(next);
            setPage(0);
          }}
          options={actors.data ?? []}
          isLoading={actors.isFetching}
          onSearch={setActorTerm}
        />
        <TextField
          select
          label="Action"
          value={action}
          onChange={(event) => {
            setAction(event.target.value);
            setPage(0);
          }}
          helperText=" "
        >
          <MenuItem value="">All actions</MenuItem>
          {ACTIONS.map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <DataTable
        label="Audit trail"
        columns={columns}
        rows={events.data?.items ?? []}
        getRowKey={(row) => row.id}
        total={events.data?.total ?? 0}
        page={page}
        pageSize={events.data?.pageSize ?? 50}
        onPageChange={setPage}
        isLoading={events.isPending}
        isFetching={events.isFetching}
        error={events.error}
        onRetry={() => void events.refetch()}
        emptyMessage="No audit events to display"
      />
    </Stack>
  );
}
