/**
 * The seat rule of an organisation (spec section 5, decision 0035): one definition, enforced by the
 * server and shown by the screens.
 */

/** How an organisation's seats are taken. */
export type SeatUse = {
  /** Active members who hold a seat: every member but those who joined through a subscription. */
  seatHolders: number;
  /** Pending invitations that are not through a subscription: each keeps a seat for its invitee. */
  pendingSeatInvitations: number;
};

/** Seats used: the seat-holders plus the seats that pending invitations keep. */
export function seatsUsed(use: SeatUse): number {
  return use.seatHolders + use.pendingSeatInvitations;
}

/**
 * Whether a change of an organisation's seat use keeps to its `seats`: it never leaves more
 * seat-holders than seats, and never raises the seats used above the seats. Accepting an invitation
 * turns the seat it kept into a seat-holder (the seats used do not move), so it fails only when the
 * seats were lowered below the seat-holders since; joining through a subscription takes no seat.
 */
export function keepsSeats({ before, after, seats }: { before: SeatUse; after: SeatUse; seats: number }): boolean {
  if (after.seatHolders > before.seatHolders && after.seatHolders > seats) return false;
  const used = seatsUsed(after);
  return used <= seats || used <= seatsUsed(before);
}

/**
 * The seat-holders an organisation's metadata names (`seatHolders`); a sub-group, which has no
 * seats of its own, names none: its members.
 */
export function seatHoldersIn(metadata: { memberCount: number; seatHolders?: number | undefined }): number {
  return metadata.seatHolders ?? metadata.memberCount;
}

/**
 * The seat figures every screen shows (the org profile, the access area's organisations, the invite dialogs),
 * as the server answers them from the rule it enforces: the seat-holders, the seats pending
 * invitations keep, the seats used (both together) and the seats still open.
 */
export type SeatFigures = SeatUse & { seats: number; used: number; open: number };

/** The seat figures of an organisation with `seats` and this seat use. */
export function seatFigures(seats: number, use: SeatUse): SeatFigures {
  const used = seatsUsed(use);
  return { ...use, seats, used, open: Math.max(0, seats - used) };
}

/**
 * The seat figures an organisation's metadata carries; null for a sub-group (no seats of its own)
 * or an answer that did not count its pending invitations.
 */
export function seatFiguresIn(metadata: {
  seats: number;
  seatHolders?: number | undefined;
  pendingSeatInvitations?: number | undefined;
}): SeatFigures | null {
  if (metadata.seatHolders === undefined || metadata.pendingSeatInvitations === undefined) return null;
  return seatFigures(metadata.seats, {
    seatHolders: metadata.seatHolders,
    pendingSeatInvitations: metadata.pendingSeatInvitations,
  });
}

const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "18 of 25 seats used": seat-holders and pending invitations together (UX guide 3). */
export function describeSeatsUsed(figures: SeatFigures): string {
  return `${figures.used} of ${figures.seats} seats used`;
}

/** The parts of the seats used, each counted: "12 members", "6 pending invitations", "7 open seats". */
export function seatBreakdownParts(figures: SeatFigures): [members: string, pending: string, open: string] {
  return [
    counted(figures.seatHolders, 'member', 'members'),
    counted(figures.pendingSeatInvitations, 'pending invitation', 'pending invitations'),
    counted(figures.open, 'open seat', 'open seats'),
  ];
}

/** "12 members, 6 pending invitations, 7 open seats": what the seats used are made of. */
export function describeSeatBreakdown(figures: SeatFigures): string {
  return seatBreakdownParts(figures).join(', ');
}
