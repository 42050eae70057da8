import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_HEADER } from '@patientsim/domain/audit/audit.schemas';
import { auditEvent } from '../../db/schema/audit.js';
import { newId } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { insertGroup, insertMember, signInNewMember, TEST_PASSWORD } from '../../../test/fixtures.js';
import { signInAs, type SignedInSession } from '../../../test/sign-in-client.js';
import { AUDIT_EXPORT_BATCH_SIZE } from './audit.service.js';

let t: TestApp;
let riverside: string;
let cohort: string;
let northgate: string;
type Member = Awaited<ReturnType<typeof signInNewMember>>;
let superAdmin: Member;
let riversideAdmin: Member;
let northgateAdmin: SignedInSession;
let student: { id: string; email: string };
let riversideStudent: SignedInSession;
/** A session of the Riverside admin that signed out: its token names an ended session. */
let endedSession: SignedInSession;
/** When each of the four events below happened. */
const at = { groupCreate: new Date(), invitation: new Date(), viewAsStart: new Date(), groupLeave: new Date() };

type Event = {
  id: string;
  action: string;
  actor: { id: string; name: string; email: string } | null;
  viewingAs: { id: string; name: string; email: string } | null;
  target: { type: string; id: string | null; label: string | null } | null;
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
  riversideStudent = await signInNewMember(t, riverside, { role: 'STUDENT' });
  endedSession = await signInAs(t, riversideAdmin.email, TEST_PASSWORD);
  expect((await endedSession.client.post('/api/users/auth/sign-out')).statusCode).toBe(200);
  at.groupCreate = minutesAgo(50);
  at.invitation = minutesAgo(40);
  at.viewAsStart = minutesAgo(30);
  at.groupLeave = minutesAgo(20);
  // Events of known times, the oldest first, with their targets' names as the writer stores them.
  await t.db.insert(auditEvent).values([
    {
      id: newId(),
      actorId: riversideAdmin.userId,
      action: 'group.create',
      targetType: 'group',
      targetId: cohort,
      targetName: 'Cohort A',
      orgId: riverside,
      createdAt: at.groupCreate,
    },
    {
      id: newId(),
      actorId: northgateAdmin.userId,
      action: 'invitation.create',
      targetType: 'invitation',
      targetId: 'inv1',
      targetName: 'invitee@example.test',
      orgId: northgate,
      createdAt: at.invitation,
    },
    {
      id: newId(),
      actorId: superAdmin.userId,
      action: 'view-as.start',
      targetType: 'user',
      targetId: student.id,
      targetName: 'Stu Dent',
      orgId: riverside,
      details: { reason: 'Support ticket 42', sessionId: 's1' },
      createdAt: at.viewAsStart,
    },
    {
      id: newId(),
      // A change made while viewing as the student: recorded as the student's, on the super admin's behalf.
      actorId: student.id,
      onBehalfOfId: superAdmin.userId,
      action: 'group.leave',
      targetType: 'group',
      targetId: riverside,
      targetName: 'Riverside EMS Academy',
      orgId: riverside,
      createdAt: at.groupLeave,
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

describe('target names', () => {
  it('shows a group by its name, also after the group is deleted', async () => {
    const org = await insertGroup(t.db, { name: 'Lakeside Medic School' });
    const admin = await signInNewMember(t, org, { role: 'ADMIN' });
    const created = await admin.client.post('/api/users/extension/groups', {
      name: 'Night Shift',
      description: JSON.stringify({ parent: org }),
    });
    expect(created.statusCode).toBe(200);
    const groupId: string = created.json()._id;
    const deleted = await admin.client.request({ method: 'DELETE', url: `/api/users/extension/groups/${groupId}` });
    expect(deleted.statusCode).toBe(200);
    const events = await items(admin, `/api/users/extension/groups/${org}/audit-events`);
    expect(events.map((e) => [e.action, e.target])).toEqual([
      ['group.delete', { type: 'group', id: groupId, label: 'Night Shift' }],
      ['group.create', { type: 'group', id: groupId, label: 'Night Shift' }],
    ]);
  });
});

describe('the date range', () => {
  const range = (from?: Date | string, to?: Date | string) => {
    const params = new URLSearchParams();
    if (from) params.set('from', typeof from === 'string' ? from : from.toISOString());
    if (to) params.set('to', typeof to === 'string' ? to : to.toISOString());
    return params.toString();
  };

  it('keeps the events from its first to its last instant, both included', async () => {
    const inRange = await items(superAdmin, `/api/users/audit-events?${range(at.invitation, at.viewAsStart)}`);
    expect(inRange.map((e) => e.action)).toEqual(['view-as.start', 'invitation.create']);
    const since = await items(superAdmin, `/api/users/audit-events?orgId=${riverside}&${range(at.viewAsStart)}`);
    expect(since.map((e) => e.action)).toEqual(['group.leave', 'view-as.start']);
    const until = await items(superAdmin, `/api/users/audit-events?${range(undefined, at.groupCreate)}`);
    expect(until.map((e) => e.action)).toEqual(['group.create']);
  });

  it('reads instants with a UTC offset, as a browser sends a local day', async () => {
    // The same instants as above, written in UTC+02:00.
    const inZone = (date: Date) => new Date(date.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    const events = await items(
      riversideAdmin,
      `/api/users/extension/groups/${riverside}/audit-events?${range(inZone(at.viewAsStart), inZone(at.groupLeave))}`,
    );
    expect(events.map((e) => e.action)).toEqual(['group.leave', 'view-as.start']);
  });

  it.each([
    // The times are set when the events are: the query is built when the test runs.
    ['a start after the end', () => range(at.groupLeave, at.groupCreate)],
    ['a date without a time', () => 'from=2026-01-01'],
    ['no time at all', () => 'to=yesterday'],
    ['an instant without an offset', () => 'from=2026-01-01T00:00:00'],
  ])('answers 400 to %s, on both trails and both exports', async (_, buildQuery) => {
    const query = buildQuery();
    for (const url of [
      `/api/users/audit-events?${query}`,
      `/api/users/audit-events/export?${query}`,
      `/api/users/extension/groups/${riverside}/audit-events?${query}`,
      `/api/users/extension/groups/${riverside}/audit-events/export?${query}`,
    ]) {
      const response = await list(url.includes('extension') ? riversideAdmin : superAdmin, url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    }
  });
});

/** The lines of a CSV without quoted line breaks (what these tests write). */
const csvLines = (body: string) => body.split('\r\n').slice(0, -1);
const header = AUDIT_CSV_HEADER.join(',');

describe('the CSV export', () => {
  it('holds the provider’s filtered events, newest first, with readable actions, names and times', async () => {
    const response = await list(
      superAdmin,
      `/api/users/audit-events/export?orgId=${riverside}&from=${at.viewAsStart.toISOString()}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="audit-trail-${at.viewAsStart.toISOString().slice(0, 10)}-to-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    expect(csvLines(response.body)).toEqual([
      header,
      `${at.groupLeave.toISOString()},Sam Super,${superAdmin.email},Stu Dent,${student.email},Left organization,Group,Riverside EMS Academy,Riverside EMS Academy,`,
      `${at.viewAsStart.toISOString()},Sam Super,${superAdmin.email},,,View As User started,User,Stu Dent,Riverside EMS Academy,Support ticket 42`,
    ]);
  });

  it('names the file after the date range as the person chose it', async () => {
    const response = await list(
      riversideAdmin,
      `/api/users/extension/groups/${riverside}/audit-events/export?from=${encodeURIComponent('2026-01-01T00:00:00.000-05:00')}&to=${encodeURIComponent('2026-03-31T23:59:59.999-05:00')}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit-trail-2026-01-01-to-2026-03-31.csv"');
    expect(csvLines(response.body)).toEqual([header]);
  });

  it('holds only the organisation’s own events on its trail, whatever the query names', async () => {
    const response = await list(riversideAdmin, `/api/users/extension/groups/${cohort}/audit-events/export?orgId=${northgate}`);
    expect(response.statusCode).toBe(200);
    const lines = csvLines(response.body);
    expect(lines.slice(1).map((line) => line.split(',')[5])).toEqual([
      'Left organization',
      'View As User started',
      'Created group',
    ]);
    expect(response.body).not.toContain('Northgate');
  });

  it('quotes cells and neutralises text a spreadsheet would run as a formula', async () => {
    const org = await insertGroup(t.db, { name: 'Quoting College' });
    const admin = await signInNewMember(t, org, { role: 'ADMIN' });
    const hostile = ['=HYPERLINK("http://x.test","open")', '+1+1', '-2+3', '@SUM(A1)', 'Smith, "Jo"'];
    await t.db.insert(auditEvent).values(
      hostile.map((name, index) => ({
        id: newId(),
        actorId: admin.userId,
        action: 'group.update',
        targetType: 'group',
        targetId: org,
        targetName: name,
        orgId: org,
        createdAt: minutesAgo(10 + index),
      })),
    );
    const response = await list(admin, `/api/users/extension/groups/${org}/audit-events/export`);
    const targets = csvLines(response.body)
      .slice(1)
      .map((line) => line.slice(line.indexOf(',Group,') + ',Group,'.length, line.lastIndexOf(',Quoting College,')));
    expect(targets).toEqual([`"'=HYPERLINK(""http://x.test"",""open"")"`, "'+1+1", "'-2+3", "'@SUM(A1)", '"Smith, ""Jo"""']);
  });

  it('streams every matching event across batches, each once, also when many share a time', async () => {
    const org = await insertGroup(t.db, { name: 'Bulkford Academy' });
    const admin = await signInNewMember(t, org, { role: 'ADMIN' });
    const count = AUDIT_EXPORT_BATCH_SIZE * 2 + 100;
    // Half the events share one instant, the other half are a microsecond apart (finer than a JavaScript date).
    await t.db.insert(auditEvent).values(
      Array.from({ length: count }, (_, index) => ({
        id: newId(),
        actorId: admin.userId,
        action: 'group.update' as const,
        targetType: 'group',
        targetId: org,
        targetName: `Event ${index}`,
        orgId: org,
        createdAt:
          index % 2 === 0
            ? sql`timestamptz '2026-02-01 12:00:00+00'`
            : sql`timestamptz '2026-02-01 12:00:00+00' - ${index} * interval '1 microsecond'`,
      })),
    );
    const response = await list(admin, `/api/users/extension/groups/${org}/audit-events/export`);
    expect(response.statusCode).toBe(200);
    const names = csvLines(response.body)
      .slice(1)
      .map((line) => line.split(',')[7]);
    expect(names).toHaveLength(count);
    expect(new Set(names).size).toBe(count);
    const times = csvLines(response.body)
      .slice(1)
      .map((line) => Date.parse(line.split(',')[0] ?? ''));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe('who may read an organisation’s trail and its export', () => {
  const urls = () => [
    `/api/users/extension/groups/${riverside}/audit-events`,
    `/api/users/extension/groups/${riverside}/audit-events/export`,
  ];

  it('refuses an admin of another organisation with 404', async () => {
    for (const url of urls()) {
      const response = await list(northgateAdmin, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
  });

  it('refuses a student of the organisation with 403', async () => {
    for (const url of urls()) {
      const response = await list(riversideStudent, url);
      expect(response.statusCode, url).toBe(403);
      expect(response.json().code).toBe('FORBIDDEN');
    }
  });

  it('refuses a call without a token, and one whose session ended, with 401', async () => {
    for (const url of urls()) {
      const anonymous = await t.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json().code).toBe('UNAUTHENTICATED');
      const ended = await list(endedSession, url);
      expect(ended.statusCode, url).toBe(401);
      expect(ended.json().code).toBe('SESSION_ENDED');
    }
  });

  it('refuses the provider’s trail and export to an organisation admin with 403', async () => {
    for (const url of ['/api/users/audit-events', '/api/users/audit-events/export']) {
      const response = await list(riversideAdmin, url);
      expect(response.statusCode, url).toBe(403);
    }
  });
});
