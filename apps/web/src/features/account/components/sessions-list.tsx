import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import type { AccountSession } from '@patientsim/domain/account/sessions.schemas';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { touchTargetSx } from '../../../components/use-is-phone';
import { VisuallyHidden } from '../../../components/visually-hidden';
import { replyMessageOr } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/use-session';
import { useEndSession } from '../api/end-session';
import { useSessions } from '../api/get-sessions';
import { useSignOutOtherSessions } from '../api/sign-out-other-sessions';

export const UNKNOWN_DEVICE = 'Unknown device';
export const SIGN_OUT_OTHERS_LABEL = 'Sign out everywhere else';
export const VIEW_AS_SESSIONS_MESSAGE = "A person's sessions are not shown while viewing PatientSim as them.";

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
// The server moves "last active" forward at most once a day: a time of day would claim too much.
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

const deviceOf = (session: AccountSession) => session.device ?? UNKNOWN_DEVICE;
/** What names one session among several on the same kind of device. */
const describe = (session: AccountSession) =>
  session.ipAddress ? `${deviceOf(session)}, ${session.ipAddress}` : deviceOf(session);
const signOutButtonId = (sessionId: string) => `sign-out-session-${sessionId}`;

/**
 * The person's signed-in browsers and devices (decision 0064): device and browser, IP address,
 * when they signed in and were last active, "This device" on the one in use. Each other one has
 * 'Sign out'; 'Sign out everywhere else' asks first. This device is signed out with the app's own
 * Sign out (it also clears this browser's cookie), so the list does not offer it.
 */
export function SessionsList() {
  const isViewAs = useCurrentUser()?.isImpersonated ?? false;
  return isViewAs ? <Alert severity="info">{VIEW_AS_SESSIONS_MESSAGE}</Alert> : <OwnSessions />;
}

function OwnSessions() {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useSignOutOtherSessions();
  const [isConfirmingOthers, setConfirmingOthers] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  if (sessions.isLoading) return <SessionsSkeleton />;

  const rows = sessions.data?.sessions ?? [];
  const others = rows.filter((session) => !session.isCurrent);

  function signOut(session: AccountSession) {
    // After the row goes, the focus moves to the next row's Sign out (or the one before, or the
    // button for every other session), never to the page's start.
    const index = others.findIndex((other) => other.id === session.id);
    const next = others[index + 1] ?? others[index - 1];
    endOne.mutate(session.id, {
      onSuccess: () => {
        setNotice(`Signed out ${deviceOf(session)}.`);
        void sessions.refetch().then(() => {
          const target = next ? document.getElementById(signOutButtonId(next.id)) : null;
          target?.focus();
        });
      },
    });
  }

  const columns: DataTableColumn<AccountSession>[] = [
    {
      key: 'device',
      header: 'Device',
      render: (session) => (
        <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          {deviceOf(session)}
          {session.isCurrent ? <Chip size="small" color="primary" label="This device" /> : null}
        </Box>
      ),
    },
    { key: 'ip', header: 'IP address', render: (session) => session.ipAddress ?? 'Unknown' },
    { key: 'signed-in', header: 'Signed in', render: (session) => dateTime.format(new Date(session.signedInAt)) },
    {
      key: 'last-active',
      header: 'Last active',
      render: (session) => (session.isCurrent ? 'Now' : dateOnly.format(new Date(session.lastActiveAt))),
    },
    {
      key: 'actions',
      header: 'Actions',
      isRowActions: true,
      render: (session) =>
        session.isCurrent ? null : (
          <Button
            id={signOutButtonId(session.id)}
            size="small"
            variant="outlined"
            aria-label={`Sign out ${describe(session)}`}
            loading={endOne.isPending && endOne.variables === session.id}
            disabled={endOne.isPending || endOthers.isPending}
            onClick={() => signOut(session)}
            sx={touchTargetSx}
          >
            Sign out
          </Button>
        ),
    },
  ];

  return (
    <Stack spacing={2}>
      <Box>
        <Button
          id="sign-out-other-sessions"
          variant="contained"
          disabled={others.length === 0 || endOne.isPending || endOthers.isPending}
          onClick={() => {
            endOthers.reset();
            setConfirmingOthers(true);
          }}
          sx={touchTargetSx}
        >
          {SIGN_OUT_OTHERS_LABEL}
        </Button>
      </Box>
      {endOne.error ? (
        <Alert severity="error" onClose={() => endOne.reset()}>
          {replyMessageOr(endOne.error, 'Unknown error')}
        </Alert>
      ) : null}
      <DataTable
        label="Signed-in devices"
        columns={columns}
        rows={rows}
        getRowKey={(session) => session.id}
        isLoading={false}
        isFetching={sessions.isFetching}
        error={sessions.error}
        onRetry={() => void sessions.refetch()}
        emptyMessage="No signed-in devices to show"
      />
      <ConfirmDialog
        isOpen={isConfirmingOthers}
        title="Sign out everywhere else"
        confirmLabel="Sign out"
        isPending={endOthers.isPending}
        onCancel={() => setConfirmingOthers(false)}
        onConfirm={() =>
          endOthers.mutate(undefined, {
            onSuccess: ({ ended }) => {
              setConfirmingOthers(false);
              setNotice(ended === 1 ? 'Signed out 1 other device.' : `Signed out ${ended} other devices.`);
            },
          })
        }
      >
        {`Sign out of PatientSim on ${others.length === 1 ? '1 other device' : `${others.length} other devices`}? Anyone using them will have to sign in again with your password. This device stays signed in.`}
        {endOthers.error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {replyMessageOr(endOthers.error, 'Unknown error')}
          </Alert>
        ) : null}
      </ConfirmDialog>
      <Snackbar open={notice !== null} autoHideDuration={4000} onClose={() => setNotice(null)} message={notice ?? ''} />
    </Stack>
  );
}

/** The list's layout while it loads: the button and three rows. */
function SessionsSkeleton() {
  return (
    <Stack spacing={2} role="status">
      <VisuallyHidden>Loading sessions</VisuallyHidden>
      <Skeleton variant="rounded" width={220} height={44} />
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} variant="rounded" height={53} />
      ))}
    </Stack>
  );
}
