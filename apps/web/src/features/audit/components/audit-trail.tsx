import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  AUDIT_ACTION_LABELS,
  type AuditEvent,
  auditActionLabel,
  auditTargetTypeLabel,
} from '@patientsim/domain/audit/audit.schemas';
import type { Group } from '@patientsim/domain/groups/group.schemas';
import type { FoundUser } from '@patientsim/domain/users/users.schemas';
import { useState } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { OrganisationSearchField } from '../../../components/organisation-search-field';
import { PersonSearchField } from '../../../components/person-search-field';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useOrganisationSearch } from '../../../lib/organisation-search';
import { useUserSearch } from '../../../lib/user-search';
import { useExportAuditEvents } from '../api/export-audit-events';
import { type AuditFilters, type AuditScope, useAuditEvents } from '../api/get-audit-events';
import { defaultDayRange, formatEventTime, toInstantRange } from '../utils/date-range';

const person = (value: AuditEvent['actor']) => (value ? `${value.name} (${value.email})` : '');

function Target({ target }: { target: AuditEvent['target'] }) {
  if (!target) return null;
  if (target.label !== null) return <>{target.label}</>;
  // Events written before names were stored, whose target was gone by then.
  return (
    <Box component="span" sx={{ color: 'text.secondary' }}>
      {auditTargetTypeLabel(target.type)}, name not recorded
    </Box>
  );
}

const COLUMNS: readonly DataTableColumn<AuditEvent>[] = [
  {
    key: 'time',
    header: 'Time',
    render: (row) => (
      <Box component="time" dateTime={row.createdAt} sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        {formatEventTime(row.createdAt)}
      </Box>
    ),
  },
  { key: 'who', header: 'Who', render: (row) => person(row.actor) },
  { key: 'viewing-as', header: 'Viewing as', render: (row) => person(row.viewingAs) },
  { key: 'action', header: 'Action', render: (row) => auditActionLabel(row.action) },
  { key: 'target', header: 'Target', render: (row) => <Target target={row.target} /> },
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
 * and when; newest first, filtered by organisation (the provider's trail), actor, action and date
 * range (the last 90 days at first), and exported as CSV with the same filters.
 */
export function AuditTrail({ organisationId }: AuditTrailProps) {
  const isProvider = organisationId === null;
  const [organisation, setOrganisation] = useState<Group | null>(null);
  const [orgTerm, setOrgTerm] = useState('');
  const [actor, setActor] = useState<FoundUser | null>(null);
  const [actorTerm, setActorTerm] = useState('');
  const [action, setAction] = useState('');
  const [days, setDays] = useState(defaultDayRange);
  const [page, setPage] = useState(0);
  const organisations = useOrganisationSearch(isProvider ? orgTerm : '');
  const actors = useUserSearch(actorTerm, organisationId);
  const scope: AuditScope = isProvider
    ? { kind: 'all', orgId: organisation?._id ?? null }
    : { kind: 'organisation', orgId: organisationId };
  const isRangeReversed = days.from !== '' && days.to !== '' && days.from > days.to;
  const filters: AuditFilters = {
    actorId: actor?.user_id ?? null,
    action: action || null,
    ...toInstantRange(days.from, days.to),
  };
  const events = useAuditEvents(scope, filters, page, { isEnabled: !isRangeReversed });
  const download = useExportAuditEvents();
  const columns = isProvider ? COLUMNS : COLUMNS.filter((column) => column.key !== 'organisation');
  const total = events.data?.total ?? 0;

  const changeDay = (end: 'from' | 'to', value: string) => {
    setDays((current) => ({ ...current, [end]: value }));
    setPage(0);
  };

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
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          type="date"
          label="From"
          value={days.from}
          onChange={(event) => changeDay('from', event.target.value)}
          error={isRangeReversed}
          helperText={isRangeReversed ? 'The start date is after the end date.' : ' '}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: days.to || undefined } }}
        />
        <TextField
          type="date"
          label="To"
          value={days.to}
          onChange={(event) => changeDay('to', event.target.value)}
          helperText=" "
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: days.from || undefined } }}
        />
        <Box sx={{ flex: 1 }} />
        <Button
          variant="outlined"
          startIcon={<Download />}
          loading={download.isPending}
          disabled={isRangeReversed}
          onClick={() => download.mutate({ scope, filters })}
          sx={{ alignSelf: { xs: 'flex-start', sm: 'center' }, minHeight: 44 }}
        >
          Export CSV
        </Button>
      </Stack>
      {download.isError ? <Alert severity="error">{errorMessage(download.error, UNKNOWN_ERROR_MESSAGE)}</Alert> : null}
      <Typography role="status" variant="body2" sx={{ color: 'text.secondary' }}>
        {events.data ? `${total} ${total === 1 ? 'event' : 'events'}` : ''}
      </Typography>
      {isRangeReversed ? null : (
        <DataTable
          label="Audit trail"
          columns={columns}
          rows={events.data?.items ?? []}
          getRowKey={(row) => row.id}
          total={total}
          page={page}
          pageSize={events.data?.pageSize ?? 50}
          onPageChange={setPage}
          isLoading={events.isPending}
          isFetching={events.isFetching}
          error={events.error}
          onRetry={() => void events.refetch()}
          emptyMessage="No audit events to display"
        />
      )}
    </Stack>
  );
}
