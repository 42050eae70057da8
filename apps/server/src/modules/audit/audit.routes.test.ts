import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvent } from '../../db/schema/audit.js';
import { newId } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { insertGroup, insertMember, signInNewMember } from '../../../test/fixtures.js';
import type { SignedInSession } from '../../../test/sign-in-client.js';

let t: TestApp;
let riverside: string;
let cohort: string;
let northgate: string;
let superAdmin: SignedInSession;
let riversideAdmin: SignedInSession;
let northgateAdmin: SignedInSession;
let student: { id: string; email: string };

type Event = {
  id: string;
  action: string;
  actor: { id: string; name: string; email: string } | null;
  viewingAs: { id: string; name: string; email: string } | null;
  target: { type: string; id: string; label: string | null } | null;
  organisation: { id: string; name: string } | null;
  reason: string | null;
  createdAt: string;
};

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

beforeAll(async () => {
  t = await buildTestApp();
  const provider = await insertGroup(t.db, { name: 'Provider' });
  riverside = await insertGroup(t.db, { name: 'Riverside EMS Academy' });
  cohort = await insertGroup(t.db, { name: `${riverside.slice(0, 4)}::Cohort A`, parentId: riverside });
  northgate = await insertGroup(t.db, { name: 'Northgate Nursing School' });
  superAdmin = await signInNewMember(t, provider, { role: 'SUPER_ADMIN', givenName: 'Sam', familyName: 'Super' });
  riversideAdmin = await signInNewMember(t, riverside, { role: 'ADMIN', givenName: 'Ada', familyName: 'Admin' });
  northgateAdmin = await signInNewMember(t, northgate, { role: 'ADMIN' });
  student = await insertMember(t.db, riverside, { role: 'STUDENT', givenName: 'Stu', familyName: 'Dent' });
  // Events of known times: the oldest first.
  await t.db.insert(auditEvent).values([
    {
      id: newId(),
      actorId: riversideAdmin.userId,
      action: 'group.create',
      targetType: 'group',
      targetId: cohort,
      orgId: riverside,
      createdAt: minutesAgo(50),
    },
    {
      id: newId(),
      actorId: northgateAdmin.userId,
      action: 'invitation.create',
      targetType: 'invitation',
      targetId: 'inv1',
      orgId: northgate,
      createdAt: minutesAgo(40),
    },
    {
      id: newId(),
      actorId: superAdmin.userId,
      action: 'view-as.start',
      targetType: 'user',
      targetId: student.id,
      orgId: riverside,
      details: { reason: 'Support ticket 42', sessionId: 's1' },
      createdAt: minutesAgo(30),
    },
    {
      id: newId(),
      // A change made while viewing as the student: recorded as the student's, on the super admin's behalf.
      actorId: student.id,
      onBehalfOfId: superAdmin.userId,
      action: 'group.leave',
      targetType: 'group',
      targetId: riverside,
      orgId: riverside,
      createdAt: minutesAgo(20),
    },
  ]);
});

const list = (session: SignedInSession, url: string) => session.client.get(url);
async function items(session: SignedInSession, url: string): Promise<Event[]> {
  const response = await list(session, url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items as Event[];
}

describe('GET /audit-events (the provider)', () => {
  it('lists every organisation’s events, newest first, with who, whose view, what, target, organisation and time', async () => {
    const events = await items(superAdmin, '/api/users/audit-events');
    expect(events.map((e) => e.action)).toEqual(['group.leave', 'view-as.start', 'invitation.create', 'group.create']);
    expect(events[0]).toMatchObject({
      actor: { id: superAdmin.userId, name: 'Sam Super' },
      viewingAs: { id: student.id, name: 'Stu Dent', email: student.email },
      target: { type: 'group', id: riverside, label: 'Riverside EMS Academy' },
      organisation: { id: riverside, name: 'Riverside EMS Academy' },
    });
    expect(events[1]).toMatchObject({
      actor: { name: 'Sam Super' },
      viewingAs: null,
      target: { type: 'user', id: student.id, label: 'Stu Dent' },
      reason: 'Support ticket 42',
    });
    // A sub-group shows without its stored prefix.
    expect(events[3]?.target).toEqual({ type: 'group', id: cohort, label: 'Cohort A' });
    expect(Date.parse(events[0]?.createdAt ?? '')).toBeGreaterThan(Date.parse(events[1]?.createdAt ?? ''));
  });

  it('filters by organisation, by actor (also what they did while viewing as someone) and by action', async () => {
    expect((await items(superAdmin, `/api/users/audit-events?orgId=${northgate}`)).map((e) => e.action)).toEqual([
      'invitation.create',
    ]);
    expect((await items(superAdmin, `/api/users/audit-events?actorId=${superAdmin.userId}`)).map((e) => e.action)).toEqual([
      'group.leave',
      'view-as.start',
    ]);
    expect((await items(superAdmin, '/api/users/audit-events?action=group.create')).map((e) => e.action)).toEqual([
      'group.create',
    ]);
    expect(await items(superAdmin, `/api/users/audit-events?orgId=${riverside}&action=invitation.create`)).toEqual([]);
  });

  it('pages the list', async () => {
    const first = (await list(superAdmin, '/api/users/audit-events?pageSize=3')).json();
    expect(first).toMatchObject({ total: 4, page: 0, pageSize: 3 });
    expect(first.items).toHaveLength(3);
    const second = (await list(superAdmin, '/api/users/audit-events?pageSize=3&page=1')).json();
    expect(second.items.map((e: Event) => e.action)).toEqual(['group.create']);
  });

  it.each(['pageSize=0', 'pageSize=101', 'page=-1', 'page=x', 'action=DROP%20TABLE', 'action=', 'actorId=a%20b', 'orgId=%00'])(
    'answers 400 to %s',
    async (query) => {
      const response = await list(superAdmin, `/api/users/audit-events?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    },
  );
});

describe('GET /extension/groups/:id/audit-events (an organisation admin)', () => {
  it('lists only the organisation’s own events, also when named through a sub-group', async () => {
    const own = await items(riversideAdmin, `/api/users/extension/groups/${riverside}/audit-events`);
    expect(own.map((e) => e.action)).toEqual(['group.leave', 'view-as.start', 'group.create']);
    const throughCohort = await items(riversideAdmin, `/api/users/extension/groups/${cohort}/audit-events`);
    expect(throughCohort.map((e) => e.id)).toEqual(own.map((e) => e.id));
    // Another organisation in the query changes nothing.
    const smuggled = await items(riversideAdmin, `/api/users/extension/groups/${riverside}/audit-events?orgId=${northgate}`);
    expect(smuggled.map((e) => e.id)).toEqual(own.map((e) => e.id));
  });

  it('filters by actor and action', async () => {
    const byAdmin = await items(
      riversideAdmin,
      `/api/users/extension/groups/${riverside}/audit-events?actorId=${riversideAdmin.userId}`,
    );
    expect(byAdmin.map((e) => e.action)).toEqual(['group.create']);
    const starts = await items(riversideAdmin, `/api/users/extension/groups/${riverside}/audit-events?action=view-as.start`);
    expect(starts).toHaveLength(1);
  });

  it('refuses another organisation’s trail with 404, and bad input with 400', async () => {
    expect((await list(northgateAdmin, `/api/users/extension/groups/${riverside}/audit-events`)).statusCode).toBe(404);
    expect((await list(riversideAdmin, `/api/users/extension/groups/${riverside}/audit-events?pageSize=500`)).statusCode).toBe(
      400,
    );
    expect((await list(riversideAdmin, `/api/users/extension/groups/${riverside}/audit-events?action=A`)).statusCode).toBe(400);
  });
});
