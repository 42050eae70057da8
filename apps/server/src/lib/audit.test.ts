import { readFileSync } from 'node:fs';
import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvent } from '../db/schema/audit.js';
import { caseConfiguration } from '../db/schema/cases.js';
import { group } from '../db/schema/groups.js';
import { invitation } from '../db/schema/invitations.js';
import { notification } from '../db/schema/notifications.js';
import { buildCase, buildInvitation, buildNotification } from '../seed/builders.js';
import { buildTestApp, type TestApp } from '../../test/build-app.js';
import { insertGroup, insertUser } from '../../test/fixtures.js';
import { audit, auditAs, type AuditEntry } from './audit.js';
import { newId } from './ids.js';

let t: TestApp;
let org: string;
let subgroup: string;
let person: { id: string; email: string };
let nameless: { id: string; email: string };
let caseId: string;
let inviteId: string;
let notificationId: string;

beforeAll(async () => {
  t = await buildTestApp();
  org = await insertGroup(t.db, { name: 'Riverside EMS Academy' });
  subgroup = await insertGroup(t.db, { name: `${org.slice(0, 4)}::Cohort A`, parentId: org });
  person = await insertUser(t.db, { givenName: 'Ada', familyName: 'Admin' });
  nameless = await insertUser(t.db, { givenName: '', familyName: '' });
  const stored = buildCase({ name: 'Chest pain at the mall', ownerOrgId: org });
  await t.db.insert(caseConfiguration).values(stored);
  caseId = stored.id;
  const invite = buildInvitation({ orgId: org, email: 'Invitee@Example.test' });
  await t.db.insert(invitation).values(invite);
  inviteId = invite.id;
  const notice = buildNotification({ title: 'New EMS templates' });
  await t.db.insert(notification).values(notice);
  notificationId = notice.id;
});

async function storedName(id: string) {
  const [row] = await t.db.select({ targetName: auditEvent.targetName }).from(auditEvent).where(eq(auditEvent.id, id));
  return row?.targetName;
}

/** Writes one event and answers the name stored with it. */
async function writeAndRead(entry: Omit<AuditEntry, 'actorId' | 'action'>) {
  const before = await t.db.select({ id: auditEvent.id }).from(auditEvent);
  await audit(t.db, { actorId: person.id, action: 'group.update', ...entry });
  const after = await t.db.select({ id: auditEvent.id, targetName: auditEvent.targetName }).from(auditEvent);
  const known = new Set(before.map((row) => row.id));
  return after.find((row) => !known.has(row.id))?.targetName;
}

describe('the audit writer', () => {
  it.each([
    ['a person, by name', () => ({ targetType: 'user' as const, targetId: person.id }), 'Ada Admin'],
    ['an organisation', () => ({ targetType: 'group' as const, targetId: org }), 'Riverside EMS Academy'],
    ['a sub-group, without its stored prefix', () => ({ targetType: 'group' as const, targetId: subgroup }), 'Cohort A'],
    ['a case', () => ({ targetType: 'case' as const, targetId: caseId }), 'Chest pain at the mall'],
    ['an invitation, by its address', () => ({ targetType: 'invitation' as const, targetId: inviteId }), 'invitee@example.test'],
    [
      'a notification, by its title',
      () => ({ targetType: 'notification' as const, targetId: notificationId }),
      'New EMS templates',
    ],
    ['a license version', () => ({ targetType: 'license' as const, targetId: '2026-01' }), 'Version 2026-01'],
    ['an address', () => ({ targetType: 'email' as const, targetId: 'someone@example.test' }), 'someone@example.test'],
  ])('stores the name of %s', async (_, target, expected) => {
    expect(await writeAndRead(target())).toBe(expected);
  });

  it('stores the e-mail address of a person without a name', async () => {
    expect(await writeAndRead({ targetType: 'user', targetId: nameless.id })).toBe(nameless.email);
  });

  it('stores the name it is given (a target deleted before the event is written), and none for an unknown target', async () => {
    expect(await writeAndRead({ targetType: 'group', targetId: newId(), targetName: 'Night Shift' })).toBe('Night Shift');
    expect(await writeAndRead({ targetType: 'group', targetId: newId() })).toBeNull();
  });

  it('keeps the stored name after the target is renamed or deleted', async () => {
    const doomed = await insertGroup(t.db, { name: `${org.slice(0, 4)}::Day Shift`, parentId: org });
    const id = newId();
    await t.db.insert(auditEvent).values({ id, actorId: person.id, action: 'group.create', orgId: org });
    await auditAs(t.db, person, {
      orgIds: [org],
      action: 'group.create',
      targetType: 'group',
      targetId: doomed,
    });
    await t.db.delete(group).where(eq(group.id, doomed));
    const [event] = await t.db.select().from(auditEvent).where(eq(auditEvent.targetId, doomed));
    expect(event?.targetName).toBe('Day Shift');
    expect(await storedName(id)).toBeNull();
  });
});

describe('the migration that added target names', () => {
  /** The statements of the migration that fill in the names of earlier events. */
  const backfill = readFileSync(new URL('../db/migrations/0016_audit_target_names.sql', import.meta.url), 'utf8')
    .split('--> statement-breakpoint')
    .map((statement) => statement.trim())
    .filter((statement) => statement.startsWith('UPDATE') || statement.includes('\nUPDATE'));

  it('names earlier events whose targets still exist, or whose details kept the name of what they deleted', async () => {
    const events = [
      { action: 'user.update-profile', targetType: 'user', targetId: person.id, expected: 'Ada Admin' },
      { action: 'user.update-profile', targetType: 'user', targetId: nameless.id, expected: nameless.email },
      { action: 'group.create', targetType: 'group', targetId: subgroup, expected: 'Cohort A' },
      { action: 'case.upsert', targetType: 'case', targetId: caseId, expected: 'Chest pain at the mall' },
      { action: 'invitation.create', targetType: 'invitation', targetId: inviteId, expected: 'invitee@example.test' },
      { action: 'notification.send', targetType: 'notification', targetId: notificationId, expected: 'New EMS templates' },
      { action: 'license.accept', targetType: 'license', targetId: '2025-06', expected: 'Version 2025-06' },
      { action: 'integration.provision', targetType: 'email', targetId: 'a@example.test', expected: 'a@example.test' },
      { action: 'case.remove', targetType: 'case', targetId: newId(), details: { name: 'Gone case' }, expected: 'Gone case' },
      {
        action: 'group.delete',
        targetType: 'group',
        targetId: newId(),
        details: { name: `${org.slice(0, 4)}::Gone group` },
        expected: 'Gone group',
      },
      {
        action: 'group.delete',
        targetType: 'group',
        details: {
          groups: [
            { id: 'a', name: `${org.slice(0, 4)}::Red` },
            { id: 'b', name: 'Blue' },
          ],
        },
        expected: 'Red, Blue',
      },
      { action: 'case.bulk-remove', targetType: 'case', details: { ids: ['a', 'b', 'c'], removed: 2 }, expected: '2 cases' },
      { action: 'case.peer-dump', targetType: 'case', details: { ids: ['a'], found: 1 }, expected: '1 case' },
      { action: 'case.copy', targetType: 'case', details: { caseIds: ['a', 'b'] }, expected: '2 cases' },
      // A target gone without a trace keeps no name.
      { action: 'group.update', targetType: 'group', targetId: newId(), expected: null },
    ];
    const rows = events.map(({ expected: _, ...event }) => ({ id: newId(), actorId: person.id, orgId: org, ...event }));
    await t.db.insert(auditEvent).values(rows);
    expect(backfill.length).toBeGreaterThan(5);
    for (const statement of backfill) await t.db.execute(sql.raw(statement));
    const stored = await t.db
      .select({ id: auditEvent.id, targetName: auditEvent.targetName })
      .from(auditEvent)
      .where(
        inArray(
          auditEvent.id,
          rows.map((row) => row.id),
        ),
      );
    const byId = new Map(stored.map((row) => [row.id, row.targetName]));
    expect(rows.map((row) => byId.get(row.id))).toEqual(events.map((event) => event.expected));
  });
});
