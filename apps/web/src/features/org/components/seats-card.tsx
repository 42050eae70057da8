import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** "37 of 50 seats used": the sentence is also the bar's text alternative. */
export function seatsSentence(members: number, seats: number): string {
  return `${members} of ${seats} seats used`;
}

/**
 * Seats, the members who hold one and open seats, with a horizontal meter of seat use (UX guide 3).
 * Subscribed members hold no seat (decision 0035): they are counted apart. Pending invitations keep
 * seats too; the invite dialogs count them.
 */
export function SeatsCard({
  seats,
  members,
  subscribedMembers = 0,
  editor,
}: {
  seats: number;
  /** Members who hold a seat. */
  members: number;
  subscribedMembers?: number;
  editor?: ReactNode;
}) {
  const open = Math.max(0, seats - members);
  const isFull = seats > 0 && members >= seats;
  const used = seats > 0 ? Math.min(100, (members / seats) * 100) : 0;
  const sentence = seatsSentence(members, seats);
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
            <Box sx={{ width: `${used}%`, bgcolor: isFull ? 'warning.dark' : 'primary.main' }} />
            <Box sx={{ flex: 1, bgcolor: 'background.paper' }} />
          </Box>
        ) : null}
        {isFull ? (
          <Typography sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'warning.dark', mb: 1 }}>
            <WarningAmberIcon aria-hidden="true" />
            All seats are taken. Contact the provider to increase seat count or remove current users to invite more.
          </Typography>
        ) : null}
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
          <Typography component="dt">Seats</Typography>
          <Typography component="dd" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
            {seats}
          </Typography>
          <Typography component="dt">Members</Typography>
          <Typography component="dd" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
            {members}
          </Typography>
          {subscribedMembers > 0 ? (
            <>
              <Typography component="dt">Subscribed members (no seat)</Typography>
              <Typography component="dd" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
                {subscribedMembers}
              </Typography>
            </>
          ) : null}
          <Typography component="dt">Open seats</Typography>
          <Typography component="dd" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
            {open}
          </Typography>
        </Box>
        {editor}
      </CardContent>
    </Card>
  );
}
