import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { describeSeatBreakdown, type SeatFigures } from '@patientsim/domain/groups/seats';
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

/** Members plus pending plus new must not exceed the seats (spec section 5; the server checks it too). */
export function exceedsOpenSeats(figures: SeatFigures, added: number): boolean {
  return exceedsSeats({ used: figures.used + added, seats: figures.seats });
}

/** Members at or above the seats: nobody more can be invited (spec section 5, the buttons are disabled). */
export function isAtFullSeats(figures: SeatFigures): boolean {
  return figures.seatHolders >= figures.seats;
}

/**
 * The footer of the invite dialogs: "42 + 6 = 48 of 50 seats" (the seats used as the server counts
 * them, plus the new seats), what the seats used are made of, a small meter, and the over-seats text.
 */
export function SeatSummary({ figures, added }: { figures: SeatFigures; added: number }) {
  const total = figures.used + added;
  const line = `${figures.used} + ${added} = ${total} of ${figures.seats} seats`;
  const isOver = exceedsOpenSeats(figures, added);
  return (
    <Box sx={{ width: '100%' }}>
      <Typography variant="body2">{line}</Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {describeSeatBreakdown(figures)}
      </Typography>
      <LinearProgress
        variant="determinate"
        aria-label={line}
        color={isOver ? 'error' : 'primary'}
        value={figures.seats > 0 ? Math.min(100, (total / figures.seats) * 100) : 100}
        sx={{ my: 1, height: 6, borderRadius: 3 }}
      />
      {isOver && <Alert severity="error">{SEATS_EXCEEDED_TEXT}</Alert>}
    </Box>
  );
}
