import { eq } from 'drizzle-orm';
import type { AuditAction, AuditTargetType } from '@patientsim/domain/audit/audit.schemas';
import { displayGroupName } from '@patientsim/domain/groups/group.schemas';
import type { Database } from '../db/client.js';
import { auditEvent } from '../db/schema/audit.js';
import { user } from '../db/schema/auth.js';
import { caseConfiguration } from '../db/schema/cases.js';
import { group } from '../db/schema/groups.js';
import { invitation } from '../db/schema/invitations.js';
import { notification } from '../db/schema/notifications.js';
import { media } from '../db/schema/tutorials.js';
import { oauthClient } from '../db/schema/oauth.js';
import { newId } from './ids.js';

export type AuditEntry = {
  actorId: string | null;
  onBehalfOfId?: string | null;
  action: AuditAction;
  targetType?: AuditTargetType;
  targetId?: string;
  /**
   * The target's name as the trail shows it. Read from the target when left out; give it when the
   * target is gone by the time the event is written, or when the event names several objects.
   */
  targetName?: string;
  orgId?: string | null;
  ipAddress?: string | null;
  details?: Record<string, unknown>;
};

/** The name of a list of objects of one kind: "3 cases". */
export function countedName(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** A person as the trail names them: their name, or their e-mail address when they gave none. */
export function personName(person: { givenName: string; familyName: string; email: string }): string {
  return `${person.givenName} ${person.familyName}`.trim() || person.email;
}

/** The name of the target as it is now, or null when it does not exist (any more). */
async function findTargetName(db: Database, type: AuditTargetType, id: string): Promise<string | null> {
  switch (type) {
    case 'user': {
      const [row] = await db
        .select({ givenName: user.givenName, familyName: user.familyName, email: user.email })
        .from(user)
        .where(eq(user.id, id));
      return row ? personName(row) : null;
    }
    case 'group': {
      const [row] = await db.select({ name: group.name }).from(group).where(eq(group.id, id));
      return row ? displayGroupName(row.name) : null;
    }
    case 'case': {
      const [row] = await db.select({ name: caseConfiguration.name }).from(caseConfiguration).where(eq(caseConfiguration.id, id));
      return row?.name ?? null;
    }
    case 'invitation': {
      const [row] = await db.select({ email: invitation.email }).from(invitation).where(eq(invitation.id, id));
      return row?.email ?? null;
    }
    case 'notification': {
      const [row] = await db.select({ title: notification.title }).from(notification).where(eq(notification.id, id));
      return row?.title ?? null;
    }
    case 'license':
      return `Version ${id}`;
    case 'email':
      return id;
    case 'media': {
      const [row] = await db.select({ fileName: media.fileName }).from(media).where(eq(media.id, id));
      return row?.fileName ?? null;
    }
    case 'application': {
      const [row] = await db.select({ name: oauthClient.name }).from(oauthClient).where(eq(oauthClient.id, id));
      return row?.name ?? null;
    }
  }
}

async function withTargetName<T extends Omit<AuditEntry, 'actorId'>>(db: Database, entry: T) {
  if (entry.targetName !== undefined || !entry.targetType || !entry.targetId) return entry;
  return { ...entry, targetName: (await findTargetName(db, entry.targetType, entry.targetId)) ?? undefined };
}

/** Appends one audit event, with its target's name (see AuditEntry.targetName). */
export async function audit(db: Database, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvent).values({ id: newId(), ...(await withTargetName(db, entry)) });
}

/** Who does something: the token's person, and the super admin when it is a View-As-User token. */
export type AuditActor = { id: string; act?: { sub: string } | undefined };

/** An event of an actor, in one organisation (`orgId`) or in each of several (`orgIds`). */
export type ActorEntry = Omit<AuditEntry, 'actorId' | 'onBehalfOfId' | 'orgId'> &
  ({ orgId?: string | null; orgIds?: never } | { orgId?: never; orgIds: readonly string[] });

/**
 * Appends the audit event(s) of something `actor` did; through a View-As-User token it is recorded
 * as the viewed person's on the super admin's behalf, so no caller has to remember to. With
 * `orgIds`, one event per organisation (each organisation's trail shows it), or a single event
 * outside any organisation when there is none.
 */
export async function auditAs(db: Database, actor: AuditActor, { orgIds, orgId, ...entry }: ActorEntry): Promise<void> {
  const named = await withTargetName(db, { ...entry, actorId: actor.id, onBehalfOfId: actor.act?.sub ?? null });
  const organisations = orgIds ? (orgIds.length > 0 ? [...new Set(orgIds)] : [null]) : [orgId ?? null];
  await db.insert(auditEvent).values(organisations.map((inOrg) => ({ id: newId(), ...named, orgId: inOrg })));
}
