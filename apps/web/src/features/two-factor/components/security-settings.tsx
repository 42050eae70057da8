import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Passkey, TwoFactorStatus } from '@patientsim/domain/auth/two-factor.schemas';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { touchTargetSx } from '../../../components/use-is-phone';
import { VisuallyHidden } from '../../../components/visually-hidden';
import { UNKNOWN_ERROR_MESSAGE, errorMessage, replyMessageOr } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/use-session';
import { useTwoFactorStatus } from '../api/get-two-factor-status';
import { useRemovePasskey } from '../api/remove-passkey';
import { useRemoveTotp } from '../api/remove-totp';
import { useRenewRecoveryCodes } from '../api/renew-recovery-codes';
import { PasswordDialog } from './password-dialog';
import { PasskeyForm } from './passkey-form';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { listNames } from './required-by';
import { TotpSetup } from './totp-setup';

export const VIEW_AS_SECURITY_MESSAGE = "A person's sign-in methods are not shown while viewing PatientSim as them.";
export const ADD_A_PASSKEY_LABEL = 'Add a passkey';

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const removePasskeyButtonId = (passkeyId: string) => `remove-passkey-${passkeyId}`;
const ADD_PASSKEY_BUTTON_ID = 'add-passkey';

/**
 * Account > Security (decision 0066): the authenticator app (set up, new recovery codes, remove)
 * and passkeys (add, remove), the organisations that require a second factor, and what that
 * forbids (removing the last one).
 */
export function SecuritySettings() {
  const isViewAs = useCurrentUser()?.isImpersonated ?? false;
  return isViewAs ? <Alert severity="info">{VIEW_AS_SECURITY_MESSAGE}</Alert> : <OwnSecurity />;
}

function OwnSecurity() {
  const status = useTwoFactorStatus();
  const [notice, setNotice] = useState<string | null>(null);

  if (status.isPending) return <SecuritySkeleton />;
  if (status.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void status.refetch()}>
            Retry
          </Button>
        }
      >
        An error occurred: {errorMessage(status.error, 'Unknown error')}
      </Alert>
    );
  }

  const { requiredBy } = status.data;
  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <Typography>
        Two-step verification asks for a second proof that it is you, after your password, when you sign in: a code from an
        authenticator app, or a passkey.
      </Typography>
      {requiredBy.length > 0 ? (
        <Alert severity="info">
          Required by {listNames(requiredBy)}. Keep at least one method: you cannot remove the last one.
        </Alert>
      ) : null}
      <AuthenticatorAppCard status={status.data} onNotice={setNotice} />
      <PasskeysCard passkeys={status.data.passkeys} onNotice={setNotice} />
      <Snackbar open={notice !== null} autoHideDuration={4000} onClose={() => setNotice(null)} message={notice ?? ''} />
    </Stack>
  );
}

type CardProps = { onNotice: (notice: string) => void };

function AuthenticatorAppCard({ status, onNotice }: CardProps & { status: TwoFactorStatus }) {
  const titleId = useId();
  const setupTitleId = useId();
  const codesTitleId = useId();
  const remove = useRemoveTotp();
  const renew = useRenewRecoveryCodes();
  const [dialog, setDialog] = useState<'setup' | 'remove' | 'codes' | null>(null);
  const { enabled, recoveryCodesLeft } = status.totp;
  const close = () => {
    setDialog(null);
    remove.reset();
    renew.reset();
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
          <Typography variant="h2" id={titleId}>
            Authenticator app
          </Typography>
          <Chip size="small" color={enabled ? 'success' : 'default'} label={enabled ? 'On' : 'Off'} />
        </Box>
        {enabled ? (
          <Typography sx={{ mb: 2 }}>
            Signing in asks for a 6-digit code from your app.{' '}
            {recoveryCodesLeft === 1 ? '1 recovery code left.' : `${recoveryCodesLeft} recovery codes left.`}
          </Typography>
        ) : (
          <Typography sx={{ mb: 2 }}>
            Use an app such as Google Authenticator, Microsoft Authenticator or 1Password to get a 6-digit code when you sign in.
          </Typography>
        )}
        {enabled && recoveryCodesLeft <= 2 ? (
          <Alert severity="warning" sx={{ mb: 2 }}>
            You are running out of recovery codes. Get new ones so you can still sign in if you lose your app.
          </Alert>
        ) : null}
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {enabled ? (
            <>
              <Button variant="outlined" onClick={() => setDialog('codes')} sx={touchTargetSx}>
                New recovery codes
              </Button>
              <Button variant="outlined" color="error" onClick={() => setDialog('remove')} sx={touchTargetSx}>
                Remove
              </Button>
            </>
          ) : (
            <Button variant="contained" onClick={() => setDialog('setup')} sx={touchTargetSx}>
              Set up
            </Button>
          )}
        </Box>
      </CardContent>

      <Dialog open={dialog === 'setup'} aria-labelledby={setupTitleId} maxWidth="sm" fullWidth>
        <DialogTitle id={setupTitleId}>Set up an authenticator app</DialogTitle>
        <DialogContent>
          {dialog === 'setup' ? (
            <TotpSetup
              doneLabel="Done"
              onCancel={close}
              onDone={() => {
                close();
                onNotice('Authenticator app set up.');
              }}
            />
          ) : null}
        </DialogContent>
      </Dialog>

      <PasswordDialog
        isOpen={dialog === 'remove'}
        title="Remove the authenticator app"
        confirmLabel="Remove"
        error={remove.error}
        isPending={remove.isPending}
        onCancel={close}
        onConfirm={(values) =>
          remove.mutate(values, {
            onSuccess: () => {
              close();
              onNotice('Authenticator app removed.');
            },
          })
        }
      >
        <Typography>
          Signing in will no longer ask for a code from your app, and your recovery codes will stop working. Enter your password
          to remove it.
        </Typography>
      </PasswordDialog>

      {renew.data ? (
        <Dialog open={dialog === 'codes'} aria-labelledby={codesTitleId} maxWidth="sm" fullWidth>
          <DialogTitle id={codesTitleId}>New recovery codes</DialogTitle>
          <DialogContent>
            <RecoveryCodesPanel
              codes={renew.data.recoveryCodes}
              continueLabel="Done"
              onContinue={() => {
                close();
                onNotice('New recovery codes saved. The old ones no longer work.');
              }}
            />
          </DialogContent>
        </Dialog>
      ) : (
        <PasswordDialog
          isOpen={dialog === 'codes'}
          title="New recovery codes"
          confirmLabel="Get new codes"
          error={renew.error}
          isPending={renew.isPending}
          onCancel={close}
          onConfirm={(values) => renew.mutate(values)}
        >
          <Typography>Your current recovery codes will stop working. Enter your password to get new ones.</Typography>
        </PasswordDialog>
      )}
    </Card>
  );
}

function PasskeysCard({ passkeys, onNotice }: CardProps & { passkeys: Passkey[] }) {
  const titleId = useId();
  const addTitleId = useId();
  const remove = useRemovePasskey();
  const [isAdding, setIsAdding] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);

  function confirmRemove(passkey: Passkey) {
    // After the passkey goes, the focus moves to the next one's Remove (or the one before, or
    // Add a passkey), never to the page's start.
    const index = passkeys.findIndex((other) => other.id === passkey.id);
    const next = passkeys[index + 1] ?? passkeys[index - 1];
    remove.mutate(passkey.id, {
      onSuccess: () => {
        setRemoving(null);
        onNotice(`Passkey “${passkey.name}” removed.`);
        window.setTimeout(() => {
          const target = document.getElementById(next ? removePasskeyButtonId(next.id) : ADD_PASSKEY_BUTTON_ID);
          target?.focus();
        }, 0);
      },
    });
  }

  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography variant="h2" id={titleId} sx={{ mb: 1 }}>
          Passkeys
        </Typography>
        <Typography sx={{ mb: 2 }}>
          A passkey uses your fingerprint, face, screen lock or a security key instead of a code.
        </Typography>
        {passkeys.length === 0 ? (
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            No passkeys yet.
          </Typography>
        ) : (
          <Box component="ul" aria-label="Your passkeys" sx={{ listStyle: 'none', p: 0, m: 0, mb: 2 }}>
            {passkeys.map((passkey) => (
              <Box
                component="li"
                key={passkey.id}
                sx={{
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'space-between',
                  gap: 1,
                  flexWrap: 'wrap',
                  py: 1,
                  borderBottom: 1,
                  borderColor: 'divider',
                }}
              >
                <Box sx={{ minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{passkey.name}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    Added {dateOnly.format(new Date(passkey.createdAt))}
                  </Typography>
                </Box>
                <Button
                  id={removePasskeyButtonId(passkey.id)}
                  size="small"
                  variant="outlined"
                  color="error"
                  aria-label={`Remove passkey ${passkey.name}`}
                  onClick={() => {
                    remove.reset();
                    setRemoving(passkey);
                  }}
                  sx={touchTargetSx}
                >
                  Remove
                </Button>
              </Box>
            ))}
          </Box>
        )}
        <Button id={ADD_PASSKEY_BUTTON_ID} variant="contained" onClick={() => setIsAdding(true)} sx={touchTargetSx}>
          {ADD_A_PASSKEY_LABEL}
        </Button>
      </CardContent>

      <Dialog open={isAdding} onClose={() => setIsAdding(false)} aria-labelledby={addTitleId} maxWidth="xs" fullWidth>
        <DialogTitle id={addTitleId}>{ADD_A_PASSKEY_LABEL}</DialogTitle>
        <DialogContent>
          {isAdding ? (
            <PasskeyForm
              onCancel={() => setIsAdding(false)}
              onAdded={(passkey) => {
                setIsAdding(false);
                onNotice(`Passkey “${passkey.name}” added.`);
              }}
            />
          ) : null}
        </DialogContent>
      </Dialog>

      <ConfirmDialog
        isOpen={removing !== null}
        title="Remove passkey"
        confirmLabel="Remove"
        isPending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => (removing ? confirmRemove(removing) : undefined)}
      >
        {`Remove the passkey “${removing?.name ?? ''}”? You will no longer be able to sign in with it.`}
        {remove.error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {replyMessageOr(remove.error, UNKNOWN_ERROR_MESSAGE)}
          </Alert>
        ) : null}
      </ConfirmDialog>
    </Card>
  );
}

/** The page's layout while it loads: the two cards. */
function SecuritySkeleton() {
  return (
    <Stack spacing={2} role="status" sx={{ maxWidth: 720 }}>
      <VisuallyHidden>Loading sign-in methods</VisuallyHidden>
      <Skeleton variant="text" />
      <Skeleton variant="rounded" height={150} />
      <Skeleton variant="rounded" height={150} />
    </Stack>
  );
}
