import { type SQL, and, desc, eq, gt, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { user } from '../../db/schema/auth.js';
import { group } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';

/** Invitations with their organisation's name and the invited address's account, if any. */
function selectInvitations(db: Database, where: SQL | undefined) {
  return db
    .select({ invitation, orgName: group.name, orgProductType: group.productType, userId: user.id })
    .from(invitation)
    .leftJoin(group, eq(group.id, invitation.orgId))
    .leftJoin(user, eq(user.email, invitation.email))
    .where(where);
}

/** Pending, unexpired organisation invitations sent to `email`, newest first. */
export function findPendingInvitationsFor(db: Database, email: string) {
  const pending = and(
    eq(invitation.email, email),
    eq(invitation.status, 'pending'),
    gt(invitation.expiresAt, new Date()),
    isNotNull(invitation.orgId),
  );
  return selectInvitations(db, pending).orderBy(desc(invitation.createdAt));
}

export function findInvitationById(db: Database, id: string) {
  return selectInvitations(db, and(eq(invitation.id, id), isNotNull(invitation.orgId)))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

export function findInvitationByTokenHash(db: Database, tokenHash: string) {
  return selectInvitations(db, eq(invitation.tokenHash, tokenHash))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

/** A pending, unexpired invitation (organisation or plain sign-up) by the hash of its token. */
export function findPendingInvitationByTokenHash(db: Database, tokenHash: string) {
  return selectInvitations(
    db,
    and(eq(invitation.tokenHash, tokenHash), eq(invitation.status, 'pending'), gt(invitation.expiresAt, new Date())),
  )
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

/** Moves a pending invitation to `status`; false when it was not pending any more (used twice). */
export function settleInvitation(db: Database, id: string, status: 'accepted' | 'declined' | 'dismissed') {
  return db
    .update(invitation)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(invitation.id, id), eq(invitation.status, 'pending')))
    .returning({ id: invitation.id })
    .then((rows) => rows.length === 1);
}
