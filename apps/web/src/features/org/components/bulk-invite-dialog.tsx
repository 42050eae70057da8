import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DeleteIcon from '@mui/icons-material/Delete';
import ErrorIcon from '@mui/icons-material/Error';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AddressStanding, InviteOutcome, InviteResult } from '@patientsim/domain/invitations/invite-users.schemas';
import { useId, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { isApiError } from '../../../lib/api-client';
import { useCreateInvitations } from '../api/create-invitations';
import { useInvitedAddresses } from '../api/get-invited-addresses';
import type { InviteDialogProps } from './invite-user-dialog';
import {
  ACCEPTED_FILE_TYPES,
  addRows,
  countNewSeats,
  DUPLICATE_DISPLAY_MS,
  type FileColumn,
  FIRST_50_MESSAGE,
  type InviteRow,
  NO_VALID_EMAILS_MESSAGE,
  soleEmailColumn,
  splitEmails,
  STANDING_NOTE,
  toStandings,
} from './invite-emails';
import { PARSE_FAILED_MESSAGE, type ReadProgress, SheetError } from './read-sheet';
import { readFileColumnsInWorker } from './read-sheet-in-worker';
import { RoleSelect } from './role-select';
import { exceedsOpenSeats, SeatSummary, SUBSCRIBED_INVITE_CONFIRM } from './seat-summary';

const OUTCOME_LABEL: Record<InviteOutcome, string> = {
  sent: 'Invitation sent',
  resent: 'Pending invitation sent again',
  'already-member': 'Already a member',
  refused: 'Not sent',
};

/** Why an address takes no new seat, or nothing for a new one. */
const noteOf = (standing: AddressStanding | undefined) =>
  standing === 'member' || standing === 'invited' ? STANDING_NOTE[standing] : null;

/** Invites up to 50 addresses at once: pasted, or read from a csv, xls or xlsx file. */
export function BulkInviteDialog({ isOpen, onClose, orgId, inviterRole, isSubscribed, figures, onInvited }: InviteDialogProps) {
  const titleId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const timers = useRef<Array<ReturnType<typeof setTimeout>>>([]);
  const create = useCreateInvitations(orgId);
  const [rows, setRows] = useState<InviteRow[]>([]);
  const [pasted, setPasted] = useState('');
  const [fileMessage, setFileMessage] = useState<string | null>(null);
  const [pendingColumns, setPendingColumns] = useState<FileColumn[] | null>(null);
  const [reading, setReading] = useState<ReadProgress | null>(null);
  const readingJob = useRef<AbortController | null>(null);
  const [isConfirming, setIsConfirming] = useState(false);
  const [results, setResults] = useState<InviteResult[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const isSending = create.isPending;
  const validRows = rows.filter((row) => row.error === null);
  const hasInvalid = rows.some((row) => row.error !== null && row.error !== 'Already in list');
  const validEmails = validRows.map((row) => row.email);
  // Members and pending invitees of the list take no new seat: the server says which (decision 0046).
  const checked = useInvitedAddresses(isSubscribed ? null : orgId, validEmails);
  const standings = checked.data ? toStandings(checked.data.addresses) : undefined;
  const newSeats = countNewSeats(validEmails, standings);
  const isOver = figures !== null && exceedsOpenSeats(figures, newSeats);
  const canSend = validRows.length > 0 && !hasInvalid && !isOver && !isSending;

  const add = (emails: string[], wasTruncated = false) => {
    const added = addRows(rows, emails);
    setRows(added.rows);
    setFileMessage(added.isTruncated || wasTruncated ? FIRST_50_MESSAGE : null);
    // A repeated address shows 'Already in list' for a moment, then leaves the list.
    const repeats = added.rows.filter((row) => row.error === 'Already in list').map((row) => row.key);
    if (repeats.length > 0) {
      timers.current.push(
        setTimeout(() => setRows((current) => current.filter((row) => !repeats.includes(row.key))), DUPLICATE_DISPLAY_MS),
      );
    }
  };

  const addPasted = () => {
    add(splitEmails(pasted));
    setPasted('');
  };

  const takeColumn = ({ found }: FileColumn) => {
    setPendingColumns(null);
    if (!found) {
      setFileMessage(NO_VALID_EMAILS_MESSAGE);
      return;
    }
    add(found.emails, found.isTruncated);
  };

  const stopReading = () => {
    readingJob.current?.abort();
    readingJob.current = null;
    setReading(null);
  };

  const readFile = async (file: File) => {
    // A new file replaces one still being read.
    stopReading();
    const job = new AbortController();
    readingJob.current = job;
    setFileMessage(null);
    setPendingColumns(null);
    setReading({ phase: 'reading' });
    let columns: FileColumn[];
    try {
      columns = await readFileColumnsInWorker(file, { signal: job.signal, onProgress: setReading });
    } catch (error) {
      if (!job.signal.aborted) {
        stopReading();
        setFileMessage(error instanceof SheetError ? error.message : PARSE_FAILED_MESSAGE);
      }
      return;
    }
    stopReading();
    if (columns.length === 0) {
      setFileMessage(NO_VALID_EMAILS_MESSAGE);
      return;
    }
    const sole = soleEmailColumn(columns);
    if (sole === null) setPendingColumns(columns);
    else takeColumn(sole);
  };

  const reset = () => {
    stopReading();
    for (const timer of timers.current) clearTimeout(timer);
    timers.current = [];
    setRows([]);
    setPasted('');
    setFileMessage(null);
    setPendingColumns(null);
    setResults(null);
    setFailure(null);
  };

  const close = () => {
    if (isSending) return;
    const hadResults = results !== null;
    reset();
    onClose();
    if (hadResults) onInvited('Invitations Sent');
  };

  const send = () => {
    setIsConfirming(false);
    setFailure(null);
    create.mutate(
      {
        users: validRows.map((row) => ({ email: row.email, role: row.role })),
        org: orgId,
        throughSubscription: isSubscribed,
        groupMembership: [],
      },
      {
        onSuccess: setResults,
        onError: (error) => setFailure(isApiError(error) ? error.message : 'Unknown error'),
      },
    );
  };

  if (results) {
    const failed = results.filter((result) => result.outcome === 'refused').length;
    return (
      <Dialog open={isOpen} onClose={close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
        <DialogTitle id={titleId}>Invitations Sent</DialogTitle>
        <DialogContent>
          {failed > 0 ? (
            <Alert severity="error" sx={{ mb: 1 }}>
              {failed} of {results.length} invitations failed.
            </Alert>
          ) : null}
          <List dense aria-label="Invitation results">
            {results.map((result) => {
              // A refusal must read as one without relying on colour: its own icon and words.
              const isFailure = result.outcome === 'refused';
              return (
                <ListItem key={result.user.email}>
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    {isFailure ? (
                      <ErrorIcon color="error" titleAccess="Failed" />
                    ) : (
                      <CheckCircleIcon color="success" titleAccess="Sent" />
                    )}
                  </ListItemIcon>
                  <ListItemText
                    primary={result.user.email}
                    secondary={
                      result.message ? `${OUTCOME_LABEL[result.outcome]}: ${result.message}` : OUTCOME_LABEL[result.outcome]
                    }
                    slotProps={{ secondary: isFailure ? { color: 'error' } : {} }}
                  />
                </ListItem>
              );
            })}
          </List>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={close}>
            Done
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <>
      <Dialog open={isOpen} onClose={close} aria-labelledby={titleId} maxWidth="md" fullWidth>
        <DialogTitle id={titleId}>Bulk Invite</DialogTitle>
        {isSending && <LinearProgress aria-label="Sending invitations" />}
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
              <TextField
                // The dialog opens to take addresses: typing starts at once.
                autoFocus
                label="Emails"
                helperText="Separate addresses with commas, spaces or new lines"
                multiline
                minRows={2}
                fullWidth
                value={pasted}
                disabled={isSending}
                onChange={(event) => setPasted(event.target.value)}
              />
              <Button variant="outlined" onClick={addPasted} disabled={isSending || pasted.trim() === ''}>
                Add
              </Button>
            </Stack>
            <div>
              <input
                ref={fileInput}
                type="file"
                accept={ACCEPTED_FILE_TYPES}
                hidden
                aria-label="Upload a csv, xls or xlsx file"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) void readFile(file);
                }}
              />
              <Button startIcon={<UploadFileIcon />} onClick={() => fileInput.current?.click()} disabled={isSending}>
                Upload file (csv, xls, xlsx)
              </Button>
            </div>
            {reading && (
              <Stack spacing={0.5} role="status">
                <Typography variant="body2">Reading file…</Typography>
                <LinearProgress
                  aria-label="Reading file"
                  variant={reading.phase === 'unpacking' ? 'determinate' : 'indeterminate'}
                  value={reading.phase === 'unpacking' ? Math.round(reading.fraction * 100) : undefined}
                />
              </Stack>
            )}
            {fileMessage && <Alert severity={fileMessage === FIRST_50_MESSAGE ? 'warning' : 'error'}>{fileMessage}</Alert>}
            {pendingColumns && (
              <FormControl>
                <FormLabel id={`${titleId}-column`}>Which column holds the email addresses?</FormLabel>
                <RadioGroup aria-labelledby={`${titleId}-column`}>
                  {pendingColumns.map((column) => (
                    <FormControlLabel
                      key={column.index}
                      value={String(column.index)}
                      control={<Radio />}
                      label={column.samples.join(', ')}
                      onChange={() => takeColumn(column)}
                    />
                  ))}
                </RadioGroup>
              </FormControl>
            )}
            {rows.length > 0 && (
              <List dense aria-label="Addresses to invite">
                {rows.map((row) => (
                  <ListItem
                    key={row.key}
                    secondaryAction={
                      <IconButton
                        edge="end"
                        aria-label={`Remove ${row.email}`}
                        disabled={isSending}
                        onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
                      >
                        <DeleteIcon />
                      </IconButton>
                    }
                  >
                    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', width: '100%', pr: 4 }}>
                      <ListItemText
                        primary={row.email}
                        secondary={row.error ?? noteOf(standings?.get(row.email))}
                        slotProps={{
                          secondary: row.error ? { color: 'error', role: 'alert' } : { color: 'text.secondary' },
                        }}
                        sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}
                      />
                      {row.error === null && (
                        <RoleSelect
                          label="Role"
                          hiddenLabelSuffix={`for ${row.email}`}
                          size="small"
                          value={row.role}
                          inviterRole={inviterRole}
                          isDisabled={isSending}
                          onChange={(role) => setRows(rows.map((r) => (r.key === row.key ? { ...r, role } : r)))}
                        />
                      )}
                    </Stack>
                  </ListItem>
                ))}
              </List>
            )}
            {hasInvalid && <Typography variant="body2">Remove the addresses marked invalid to send.</Typography>}
            {failure && <Alert severity="error">{failure}</Alert>}
            {figures && <SeatSummary figures={figures} added={newSeats} />}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={isSending}>
            Cancel
          </Button>
          <Button
            variant="contained"
            disabled={!canSend}
            loading={isSending}
            onClick={() => (isSubscribed ? setIsConfirming(true) : send())}
          >
            Send
          </Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        isOpen={isConfirming}
        title="Subscribed Invite"
        confirmLabel="Send"
        onConfirm={send}
        onCancel={() => setIsConfirming(false)}
      >
        {SUBSCRIBED_INVITE_CONFIRM}
      </ConfirmDialog>
    </>
  );
}
