import Typography from '@mui/material/Typography';
import type { SentNotification } from '@patientsim/domain/notifications/notification.schemas';
import { useState } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { useSentNotifications } from '../api/get-sent-notifications';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const COLUMNS: readonly DataTableColumn<SentNotification>[] = [
  { key: 'header', header: 'Header', render: (row) => row.notification.title },
  { key: 'sent', header: 'Sent', render: (row) => dateTime.format(new Date(row.notification.date)) },
  { key: 'by', header: 'Sent by', render: (row) => row.sender?.name ?? '' },
  { key: 'targets', header: 'Targets', render: (row) => row.targets.map((target) => target.label).join('; ') },
  {
    key: 'read',
    header: 'Read',
    // Groups are resolved when read: people who join a targeted group later count too.
    render: (row) => `Read ${row.readCount} of ${row.audience}`,
  },
];

/** The announcements sent so far, with how many of the people each reaches have read it. */
export function SentNotifications() {
  const [page, setPage] = useState(0);
  const sent = useSentNotifications(page);
  return (
    <>
      <Typography component="h2" variant="h5" gutterBottom>
        Sent notifications
      </Typography>
      <DataTable
        label="Sent notifications"
        columns={COLUMNS}
        rows={sent.data?.items ?? []}
        getRowKey={(row) => row.notification._id}
        total={sent.data?.total ?? 0}
        page={page}
        pageSize={sent.data?.pageSize ?? 20}
        onPageChange={setPage}
        isLoading={sent.isPending}
        isFetching={sent.isFetching}
        error={sent.error}
        onRetry={() => void sent.refetch()}
        emptyMessage="No notifications sent yet"
      />
    </>
  );
}
