import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { exceedsSeats } from '@patientsim/domain/invitations/invite-users.schemas';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';

/** Spec section 5: the text that disables sending when invitations do not fit the seats. */
export const SEATS_EXCEEDED_TEXT = ERROR_CODES.SEATS_EXCEEDED.message;

/** Spec section 5: the invite buttons' tooltip at full seats. */
export const FULL_SEATS_TOOLTIP =
  'You have more users than you have seats for. Contact the provider to increase seat count or remove current users to invite more.';

/** Spec section 5: what a subscribed invitation asks before it is sent. */
export const SUBSCRIBED_INVITE_CONFIRM = 'All invited users must sign up for a subscription to access the content.';

export type SeatUse = {
  /** The seats used: seat-holding members plus pending invitations that keep a seat (decision 0035). */
  taken: number;
  seats: number;
  /** The addresses whose pending invitations already keep a seat: inviting them again takes none. */
  pendingEmails?: ReadonlySet<string>;
};

/** Members plus pending plus new must not exceed the seats (spec section 5; the server checks it too). */
export function exceedsOpenSeats(use: SeatUse, added: number): boolean {
  return exceedsSeats({ used: use.taken + added, seats: use.seats });
}

/** How many of `emails` would take a new seat: those without a pending invitation already. */
export function countNewSeats(use: SeatUse, emails: readonly string[]): number {
  return emails.filter((email) => !use.pendingEmails?.has(email)).length;
}

/** At or above the seats, nobody more can be invited (the buttons are disabled). */
export function isAtFullSeats(use: SeatUse): boolean {
  return use.taken >= use.seats;
}

/** The footer line of the invite dialogs: "42 + 6 = 48 of 50 seats", a small meter, and the over-seats text. */
export function SeatSummary({ use, added }: { use: SeatUse; added: number }) {
  const total = use.taken + added;
  const line = `${use.taken} + ${added} = ${total} of ${use.seats} seats`;
  const isOver = exceedsOpenSeats(use, added);
  return (
    <Box sx={{ width: '100%' }}>
      <Typography variant="body2">{line}</Typography>
      <LinearProgress
        variant="determinate"
        aria-label={line}
        color={isOver ? 'error' : 'primary'}
        value={use.seats > 0 ? Math.min(100, (total / use.seats) * 100) : 100}
        sx={{ my: 1, height: 6, borderRadius: 3 }}
      />
      {isOver && <Alert severity="error">{SEATS_EXCEEDED_TEXT}</Alert>}
    </Box>
  );
}
