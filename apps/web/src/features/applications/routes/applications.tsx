import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import type { Application, RegisteredApplication } from '@patientsim/domain/applications/application.schemas';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { ScreenHeader } from '../../../components/screen-header';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useApplications } from '../api/get-applications';
import { useRemoveApplication } from '../api/remove-application';
import { ClientSecretDialog } from '../components/client-secret-dialog';
import { RegisterApplicationDialog } from '../components/register-application-dialog';

export const NO_APPLICATIONS_MESSAGE = 'No applications registered yet';

const addressList = (addresses: readonly string[]) => (
  <Box component="ul" sx={{ m: 0, pl: 2 }}>
    {addresses.map((address) => (
      <Box component="li" key={address} sx={{ wordBreak: 'break-all' }}>
        {address}
      </Box>
    ))}
  </Box>
);

/**
 * /access/applications: the platform's applications that sign their users in through PatientSim
 * (decision 0065), registered and removed by a super admin.
 */
export function ApplicationsRoute() {
  const applications = useApplications();
  const remove = useRemoveApplication();
  const [isRegistering, setIsRegistering] = useState(false);
  const [registered, setRegistered] = useState<RegisteredApplication | null>(null);
  const [removing, setRemoving] = useState<Application | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const columns: DataTableColumn<Application>[] = [
    { key: 'name', header: 'Name', render: (app) => app.name },
    {
      key: 'clientId',
      header: 'Client ID',
      render: (app) => (
        <Box component="code" sx={{ wordBreak: 'break-all', fontFamily: 'monospace' }}>
          {app.clientId}
        </Box>
      ),
    },
    {
      key: 'type',
      header: 'Type',
      render: (app) => <Chip size="small" variant="outlined" label={app.type === 'public' ? 'Public' : 'Confidential'} />,
    },
    { key: 'redirectUris', header: 'Redirect URIs', render: (app) => addressList(app.redirectUris) },
    {
      key: 'createdAt',
      header: 'Created',
      render: (app) => <Box sx={{ fontVariantNumeric: 'tabular-nums' }}>{app.createdAt.slice(0, 10)}</Box>,
    },
    {
      key: 'actions',
      header: 'Actions',
      isRowActions: true,
      render: (app) => (
        <Button color="error" size="small" onClick={() => setRemoving(app)} aria-label={`Remove ${app.name}`}>
          Remove
        </Button>
      ),
    },
  ];

  return (
    <>
      <ScreenHeader title="Applications" />
      <Typography component="p" sx={{ mb: 2 }}>
        The platform&apos;s applications that sign their users in with their PatientSim account.
      </Typography>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setIsRegistering(true)}>
          Register application
        </Button>
      </Box>
      <DataTable
        label="Applications"
        columns={columns}
        rows={applications.data?.applications ?? []}
        getRowKey={(app) => app.id}
        isLoading={applications.isPending}
        isFetching={applications.isFetching}
        error={applications.error}
        onRetry={() => void applications.refetch()}
        emptyMessage={NO_APPLICATIONS_MESSAGE}
      />
      <RegisterApplicationDialog
        isOpen={isRegistering}
        onClose={() => setIsRegistering(false)}
        onRegistered={(result) => {
          setIsRegistering(false);
          setRegistered(result);
        }}
      />
      <ClientSecretDialog registered={registered} onClose={() => setRegistered(null)} />
      <ConfirmDialog
        isOpen={removing !== null}
        title="Remove application"
        confirmLabel="Remove"
        isPending={remove.isPending}
        onCancel={() => {
          remove.reset();
          setRemoving(null);
        }}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.id, {
            onSuccess: () => {
              setNotice(`${removing.name} removed`);
              setRemoving(null);
            },
          });
        }}
      >
        {`Remove ${removing?.name ?? ''}? It will no longer be able to sign anyone in, and the sessions it holds stop working.`}
        {remove.error ? ` ${errorMessage(remove.error, UNKNOWN_ERROR_MESSAGE)}` : ''}
      </ConfirmDialog>
      <Snackbar open={notice !== null} autoHideDuration={4000} onClose={() => setNotice(null)} message={notice ?? ''} />
    </>
  );
}
