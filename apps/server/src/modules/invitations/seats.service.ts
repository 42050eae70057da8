import { keepsSeats, type SeatUse, seatsUsed } from '@patientsim/domain/groups/seats';
import { isAdmin } from '@patientsim/domain/roles/roles';
import type { Database } from '../../db/client.js';
import type { invitation } from '../../db/schema/invitations.js';
import { AppError } from '../../lib/errors.js';
import {
  claimVacantKeyOwnership,
  countSeatTakingInvitations,
  type GroupRow,
  lockOrganisation,
  seatHoldersOf,
} from '../organisations/organisations.service.js';
import { joinOrganisation } from '../users/users.service.js';

/** An organisation locked for the rest of a transaction, and how its seats are taken. */
export type OrganisationSeats = SeatUse & { org: GroupRow };

/** What a person who finds no seat left is told (accepting, signing up, a provisioned account). */
export const NO_SEAT_MESSAGE =
  'This organization has no open seat for you. Ask its administrator to free a seat or to request more seats.';

/**
 * Locks the organisation for the rest of the transaction and reads its seat use (decision 0035).
 * Every write that can take a seat calls it before anything else it writes, so such writes run one
 * after the other and each counts what the one before it left: two admins inviting, two people
 * accepting, a move and a provisioned account cannot pass on the same free seat.
 */
export async function lockSeats(tx: Database, orgId: string): Promise<OrganisationSeats> {
  const org = await lockOrganisation(tx, orgId);
  const pending = await countSeatTakingInvitations(tx, [orgId]);
  return { org, seatHolders: seatHoldersOf(org), pendingSeatInvitations: pending.get(orgId) ?? 0 };
}

/** Whether one more seat-holder, who has no invitation keeping a seat, would fit. */
export function hasFreeSeat(seats: OrganisationSeats): boolean {
  return keepsSeats({ before: seats, after: { ...seats, seatHolders: seats.seatHolders + 1 }, seats: seats.org.seats });
}

/**
 * After the writes of a transaction that began with `lockSeats`: refuses them (SEATS_EXCEEDED, so
 * the transaction is undone) when they broke the seat rule, reading what they left.
 */
export async function assertSeatsKept(tx: Database, before: OrganisationSeats, { message = NO_SEAT_MESSAGE } = {}) {
  const after = await lockSeats(tx, before.org.id);
  if (!keepsSeats({ before, after, seats: after.org.seats })) {
    throw new AppError('SEATS_EXCEEDED', {
      message,
      details: { seatHolders: after.seatHolders, used: seatsUsed(after), seats: after.org.seats },
    });
  }
}

/**
 * The one path that joins an organisation through an invitation (from the link, the profile, or
 * signing up through the link), inside the transaction that used the invitation and began with
 * `lockSeats`: the organisation and the invited sub-groups with the invited role, as a subscribed
 * member when invited through a subscription (no seat) or as a seat-holder otherwise (taking the
 * seat the invitation kept, refused when the seats were lowered below the seat-holders since). An
 * admin joining an organisation without a key owner becomes it. The key owner the provider named
 * for a new organisation joins it whatever its seats (they default to 0, spec section 9): the
 * organisation has nobody holding a seat yet, and they are, or become, its key owner.
 */
export async function joinInvitedOrganisation(
  tx: Database,
  {
    invitation: invited,
    userId,
    seats,
  }: { invitation: typeof invitation.$inferSelect & { orgId: string }; userId: string; seats: OrganisationSeats },
) {
  const role = invited.role;
  await joinOrganisation(tx, {
    userId,
    orgId: invited.orgId,
    groupIds: invited.groupIds,
    role,
    subscribed: invited.throughSubscription,
  });
  const isNamedKeyOwner = seats.seatHolders === 0 && (seats.org.ownerId === null ? isAdmin(role) : seats.org.ownerId === userId);
  await claimVacantKeyOwnership(tx, { orgId: invited.orgId, userId, role });
  if (!isNamedKeyOwner) await assertSeatsKept(tx, seats);
}
