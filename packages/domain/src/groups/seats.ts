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
