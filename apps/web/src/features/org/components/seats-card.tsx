import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import { alpha, type Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { describeSeatsUsed, type SeatFigures, seatBreakdownParts } from '@patientsim/domain/groups/seats';
import type { ReactNode } from 'react';

/** The pending segment: stripes of the members' colour, so that it reads apart without colour alone. */
const hatched = (theme: Theme) =>
  `repeating-linear-gradient(45deg, ${theme.palette.primary.main} 0 3px, ${alpha(theme.palette.primary.main, 0.15)} 3px 7px)`;

const percentOf = (count: number, seats: number) => (seats > 0 ? Math.min(100, (count / seats) * 100) : 0);

function Swatch({ kind }: { kind: 'members' | 'pending' | 'open' }) {
  return (
    <Box
      aria-hidden="true"
      sx={(theme) => ({
        width: 14,
        height: 14,
        flexShrink: 0,
        border: 1,
        borderColor: 'grey.600',
        bgcolor: kind === 'members' ? 'primary.main' : 'background.paper',
        backgroundImage: kind === 'pending' ? hatched(theme) : undefined,
      })}
    />
  );
}

/**
 * Seats used, as the server counts them (decision 0035): the members who hold a seat, the pending
 * invitations that keep one (hatched) and the open seats, on a horizontal stacked meter (UX guide 3).
 * Subscribed members hold no seat: they are counted apart.
 */
export function SeatsCard({
  figures,
  subscribedMembers = 0,
  editor,
}: {
  figures: SeatFigures;
  subscribedMembers?: number;
  editor?: ReactNode;
}) {
  const { seats, seatHolders, pendingSeatInvitations, used } = figures;
  const isFull = seats > 0 && used >= seats;
  const membersWidth = percentOf(seatHolders, seats);
  const pendingWidth = Math.min(100 - membersWidth, percentOf(pendingSeatInvitations, seats));
  const sentence = describeSeatsUsed(figures);
  const [members, pending, openSeats] = seatBreakdownParts(figures);
  const legend = [
    { kind: 'members' as const, text: members },
    { kind: 'pending' as const, text: pending },
    { kind: 'open' as const, text: openSeats },
  ];
  return (
    <Card variant="outlined" component="section" aria-labelledby="seats-card-title">
      <CardContent>
        <Typography id="seats-card-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
          Seats
        </Typography>
        <Typography sx={{ fontWeight: 600 }}>{sentence}</Typography>
        {seats > 0 ? (
          <Box
            role="img"
            aria-label={sentence}
            sx={{ display: 'flex', height: 16, my: 1.5, borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'grey.600' }}
          >
            <Box sx={{ width: `${membersWidth}%`, bgcolor: 'primary.main' }} />
            <Box sx={(theme) => ({ width: `${pendingWidth}%`, backgroundImage: hatched(theme) })} />
            <Box sx={{ flex: 1, bgcolor: 'background.paper' }} />
          </Box>
        ) : null}
        {isFull ? (
          <Typography sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'warning.dark', mb: 1 }}>
            <WarningAmberIcon aria-hidden="true" />
            All seats are taken. Contact the provider to increase seat count or remove current users to invite more.
          </Typography>
        ) : null}
        <Box
          component="ul"
          aria-label="Seat use"
          sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexWrap: 'wrap', columnGap: 2.5, rowGap: 0.5 }}
        >
          {legend.map(({ kind, text }) => (
            <Box
              component="li"
              key={kind}
              sx={{ display: 'flex', alignItems: 'center', gap: 1, fontVariantNumeric: 'tabular-nums' }}
            >
              <Swatch kind={kind} />
              <Typography component="span">{text}</Typography>
            </Box>
          ))}
        </Box>
        {subscribedMembers > 0 ? (
          <Typography variant="body2" sx={{ mt: 1 }}>
            {subscribedMembers === 1 ? '1 subscribed member holds' : `${subscribedMembers} subscribed members hold`} no seat.
          </Typography>
        ) : null}
        {editor}
      </CardContent>
    </Card>
  );
}
