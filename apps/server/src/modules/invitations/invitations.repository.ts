import { type Placeholder, type SQL, and, asc, count, desc, eq, gt, ilike, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
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

export function insertInvitation(db: Database, values: typeof invitation.$inferInsert) {
  return db.insert(invitation).values(values);
}

const isPendingIn = (orgId: string) =>
  and(eq(invitation.orgId, orgId), eq(invitation.status, 'pending'), gt(invitation.expiresAt, new Date()));

/** The pending, unexpired invitations of an organisation, newest first. */
export function findPendingInvitationsOfOrganisation(db: Database, orgId: string) {
  return selectInvitations(db, isPendingIn(orgId)).orderBy(desc(invitation.createdAt));
}

/** The pending, unexpired invitations of an organisation to any of `emails`. */
export function findPendingInvitationsTo(db: Database, orgId: string, emails: readonly string[]) {
  if (emails.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(invitation)
    .where(and(isPendingIn(orgId), inArray(invitation.email, [...emails])));
}

export function insertInvitations(db: Database, values: Array<typeof invitation.$inferInsert>) {
  if (values.length === 0) return Promise.resolve();
  return db
    .insert(invitation)
    .values(values)
    .then(() => undefined);
}

/** A fresh link for a pending invitation: the old token stops working. False when it was not pending. */
export function renewInvitationToken(db: Database, id: string, { tokenHash, expiresAt }: { tokenHash: string; expiresAt: Date }) {
  return db
    .update(invitation)
    .set({ tokenHash, expiresAt, updatedAt: new Date() })
    .where(and(eq(invitation.id, id), eq(invitation.status, 'pending')))
    .returning({ id: invitation.id })
    .then((rows) => rows.length === 1);
}

/** Revokes an organisation's pending invitations to `email`; the ids revoked (none when there was none). */
export function revokeInvitations(db: Database, orgId: string, email: string) {
  return db
    .update(invitation)
    .set({ status: 'revoked', updatedAt: new Date() })
    .where(and(eq(invitation.orgId, orgId), eq(invitation.email, email), eq(invitation.status, 'pending')))
    .returning({ id: invitation.id })
    .then((rows) => rows.map((r) => r.id));
}

/** Open invitations of an organisation as its users list shows them: pending and declined ones. */
export type OpenInvitationFilter = { orgId: string; isSubscribedOnly: boolean; term?: string | undefined };

/** Pending and declined invitations of an organisation, optionally only subscribed ones, whose address matches `pattern`. */
function openInvitationWhere({
  orgId,
  isSubscribedOnly,
  pattern,
}: {
  orgId: string | Placeholder;
  isSubscribedOnly: boolean;
  pattern: string | Placeholder | undefined;
}) {
  return and(
    eq(invitation.orgId, orgId),
    inArray(invitation.status, ['pending', 'declined']),
    isSubscribedOnly ? eq(invitation.throughSubscription, true) : undefined,
    pattern === undefined ? undefined : ilike(invitation.email, pattern),
  );
}

/** `term` anywhere in the address, its LIKE wildcards taken literally. */
const containsPattern = (term: string | undefined) => (term ? `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined);

/** How many invitations the member list shows after the members (a named statement, decision 0024). */
export function countOpenInvitations(db: Database, { orgId, isSubscribedOnly, term }: OpenInvitationFilter) {
  const pattern = containsPattern(term);
  return prepared(db, `open_invitation_count${isSubscribedOnly ? '_subscribed' : ''}${pattern ? '_search' : ''}`, (name) =>
    db
      .select({ total: count() })
      .from(invitation)
      .where(
        openInvitationWhere({
          orgId: sql.placeholder('orgId'),
          isSubscribedOnly,
          pattern: pattern === undefined ? undefined : sql.placeholder('pattern'),
        }),
      )
      .prepare(name),
  )
    .execute({ orgId, pattern })
    .then((rows) => rows[0]?.total ?? 0);
}

export function findOpenInvitationsPage(
  db: Database,
  filter: OpenInvitationFilter,
  { offset, limit }: { offset: number; limit: number },
) {
  return db
    .select({
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      status: invitation.status,
      throughSubscription: invitation.throughSubscription,
    })
    .from(invitation)
    .where(openInvitationWhere({ ...filter, pattern: containsPattern(filter.term) }))
    .orderBy(asc(invitation.email), asc(invitation.id))
    .offset(offset)
    .limit(limit);
}
