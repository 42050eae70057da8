import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@patientsim/domain/roles/roles';
import { auditEvent } from '../../db/schema/audit.js';
import { user } from '../../db/schema/auth.js';
import { group } from '../../db/schema/groups.js';
import { notification, notificationTarget } from '../../db/schema/notifications.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { addMember, insertGroup, insertMember, insertUser, signInNewMember } from '../../../test/fixtures.js';
import { signInAs, type SignedInSession } from '../../../test/sign-in-client.js';

let t: TestApp;
let provider: string;
let riverside: string;
let cohort: string;
let northgate: string;
let superAdmin: SignedInSession;
/** Riverside's people by role, signed in; and Northgate's admin. */
const riversideMember = {} as Record<Exclude<Role, 'SUPER_ADMIN'>, SignedInSession>;
let northgateAdmin: SignedInSession;
let keyOwner: SignedInSession;
let cohortStudent: SignedInSession;

beforeAll(async () => {
  t = await buildTestApp();
  provider = await insertGroup(t.db, { name: 'Provider' });
  riverside = await insertGroup(t.db, { name: 'Riverside EMS Academy' });
  cohort = await insertGroup(t.db, { name: `${riverside.slice(0, 4)}::Cohort A`, parentId: riverside });
  northgate = await insertGroup(t.db, { name: 'Northgate Nursing School' });
  superAdmin = await signInNewMember(t, provider, { role: 'SUPER_ADMIN' });
  for (const role of ['STUDENT', 'USER', 'ADMIN'] as const) riversideMember[role] = await signInNewMember(t, riverside, { role });
  northgateAdmin = await signInNewMember(t, northgate, { role: 'ADMIN' });
  const owner = await insertMember(t.db, northgate, { role: 'USER', givenName: 'Kay', familyName: 'Owner' });
  await t.db.update(group).set({ ownerId: owner.id }).where(eq(group.id, northgate));
  keyOwner = await signInAs(t, owner.email, owner.password);
  const inCohort = await insertMember(t.db, riverside, { role: 'STUDENT' });
  await addMember(t.db, cohort, inCohort.id, 'STUDENT');
  cohortStudent = await signInAs(t, inCohort.email, inCohort.password);
});

type Target = { principalType: 'GROUP' | 'USER'; principalId: string; label?: string };
const body = (targets: Target[], extra: Record<string, unknown> = {}) => ({
  title: 'Skills check',
  message: 'On Friday at 9.',
  targets,
  ...extra,
});
const send = (payload: unknown) => superAdmin.client.post('/api/users/notifications', payload);

async function sendTo(targets: Target[], extra: Record<string, unknown> = {}): Promise<string> {
  const response = await send(body(targets, extra));
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.notification._id as string;
}

async function seenBy(session: SignedInSession, id: string): Promise<boolean> {
  const response = await session.client.get('/api/users/notifications/pending');
  expect(response.statusCode).toBe(200);
  return response.json().data.notifications.some((n: { _id: string }) => n._id === id);
}

/** People who joined during the tests. */
const joinedLater: SignedInSession[] = [];
const everyone = () => [...Object.values(riversideMember), northgateAdmin, keyOwner, cohortStudent, superAdmin, ...joinedLater];

async function readersOf(id: string): Promise<SignedInSession[]> {
  const reached: SignedInSession[] = [];
  for (const session of everyone()) if (await seenBy(session, id)) reached.push(session);
  return reached;
}

async function sentEntry(id: string) {
  const response = await superAdmin.client.get('/api/users/notifications/sent?pageSize=100');
  expect(response.statusCode).toBe(200);
  return response.json().items.find((item: { notification: { _id: string } }) => item.notification._id === id);
}

const notificationCount = () =>
  t.db
    .select({ n: count() })
    .from(notification)
    .then((rows) => rows[0]?.n ?? 0);

describe('POST /notifications', () => {
  it('reaches exactly the one targeted user, and records who sent what', async () => {
    const target = riversideMember.STUDENT;
    const response = await send(
      body([{ principalType: 'USER', principalId: target.userId, label: 'whatever the client says' }], {
        color: '#018786',
        actions: [{ label: 'Go to', type: 'URL', metadata: { url: 'https://example.test/news' } }],
      }),
    );
    expect(response.statusCode).toBe(200);
    const sent = response.json().data.notification;
    expect(sent).toMatchObject({ type: 'POPUP_MESSAGE', title: 'Skills check', color: '#018786', read: false });
    expect(await readersOf(sent._id)).toEqual([target]);
    const [stored] = await t.db.select().from(notificationTarget).where(eq(notificationTarget.notificationId, sent._id));
    // The label is the stored person's, never the sender's text.
    expect(stored?.label).toBe(`Test User (${target.payload.email})`);
    const [event] = await t.db.select().from(auditEvent).where(eq(auditEvent.targetId, sent._id));
    expect(event).toMatchObject({ actorId: superAdmin.userId, action: 'notification.send', targetType: 'notification' });
  });

  it('defaults the header colour to red and the type to a popup', async () => {
    const id = await sendTo([{ principalType: 'USER', principalId: riversideMember.USER.userId }]);
    const [row] = await t.db.select().from(notification).where(eq(notification.id, id));
    expect(row).toMatchObject({ color: 'red', type: 'POPUP_MESSAGE', actions: [], media: null, animation: null });
  });

  it.each([
    ['ALL_STUDENTS', () => [riversideMember.STUDENT, cohortStudent, ...joinedLater]],
    ['ALL_INSTRUCTORS', () => [riversideMember.USER, keyOwner]],
    ['ALL_ADMINS', () => [riversideMember.ADMIN, northgateAdmin, superAdmin]],
    ['ALL_KEYOWNERS', () => [keyOwner]],
    ['ALL_USERS', () => everyone()],
  ])('reaches the pseudo group %s and nobody else', async (pseudo, expected) => {
    const id = await sendTo([{ principalType: 'GROUP', principalId: pseudo }]);
    expect(new Set(await readersOf(id))).toEqual(new Set(expected()));
  });

  it("reaches an organisation's admins, its instructors, all its members, or a sub-group's", async () => {
    const admins = await sendTo([{ principalType: 'GROUP', principalId: `${riverside}_ADMINS` }]);
    expect(await readersOf(admins)).toEqual([riversideMember.ADMIN]);
    const instructors = await sendTo([{ principalType: 'GROUP', principalId: `${northgate}_INSTRUCTORS` }]);
    expect(await readersOf(instructors)).toEqual([keyOwner]);
    const organisation = await sendTo([{ principalType: 'GROUP', principalId: riverside }]);
    expect(new Set(await readersOf(organisation))).toEqual(new Set([...Object.values(riversideMember), cohortStudent]));
    const subGroup = await sendTo([{ principalType: 'GROUP', principalId: cohort }]);
    expect(await readersOf(subGroup)).toEqual([cohortStudent]);
  });

  it('reaches people who join a targeted group after it was sent', async () => {
    const id = await sendTo([{ principalType: 'GROUP', principalId: cohort }]);
    const later = await insertMember(t.db, riverside, { role: 'STUDENT' });
    await addMember(t.db, cohort, later.id, 'STUDENT');
    const session = await signInAs(t, later.email, later.password);
    joinedLater.push(session);
    expect(await seenBy(session, id)).toBe(true);
    expect((await sentEntry(id)).audience).toBe(2);
  });

  it('ignores duplicate targets and labels each from what is stored', async () => {
    const id = await sendTo([
      { principalType: 'GROUP', principalId: 'ALL_ADMINS' },
      { principalType: 'GROUP', principalId: 'ALL_ADMINS', label: 'again' },
      { principalType: 'GROUP', principalId: `${riverside}_INSTRUCTORS` },
      { principalType: 'GROUP', principalId: cohort },
    ]);
    const entry = await sentEntry(id);
    expect(entry.targets.map((target: Target) => target.label).sort()).toEqual(
      ['All admins', 'Cohort A', 'Riverside EMS Academy: Instructors'].sort(),
    );
  });

  it.each([
    ['no body', undefined],
    ['no target', body([])],
    ['a header of 26 characters', body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], { title: 'x'.repeat(26) })],
    ['a body of 501 characters', body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], { message: 'x'.repeat(501) })],
    ['a blank header', body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], { title: '   ' })],
    ['a colour off the palette', body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], { color: '#000000' })],
    ['an unknown type', body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], { type: 'SMS' })],
    [
      'an invitation action',
      body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], { actions: [{ label: 'Accept', type: 'ACCEPT_INVITE' }] }),
    ],
    [
      'a script link',
      body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], {
        actions: [{ label: 'Go to', type: 'URL', metadata: { url: 'javascript:alert(1)' } }],
      }),
    ],
    [
      'a case link without a case',
      body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], {
        actions: [{ label: 'Go to', type: 'CASE_LINK', metadata: {} }],
      }),
    ],
    [
      'four actions',
      body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], { actions: Array(4).fill({ label: 'OK', type: 'DISMISS' }) }),
    ],
    [
      'an image over plain http',
      body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], { media: { type: 'IMAGE', url: 'http://x.test/a.png' } }),
    ],
    [
      'media that is not an image',
      body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], { media: { type: 'VIDEO', url: '/media/abc' } }),
    ],
    ['an unknown animation', body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], { animation: 'fireworks' })],
    [
      'Everyone with a specific role',
      body([
        { principalType: 'GROUP', principalId: 'ALL_USERS' },
        { principalType: 'GROUP', principalId: 'ALL_STUDENTS' },
      ]),
    ],
    [
      'an organisation with its own admins',
      body([
        { principalType: 'GROUP', principalId: 'org1' },
        { principalType: 'GROUP', principalId: 'org1_ADMINS' },
      ]),
    ],
    ['an unknown principal type', { ...body([]), targets: [{ principalType: 'ROLE', principalId: 'ADMIN' }] }],
    ['a malformed principal id', body([{ principalType: 'USER', principalId: 'a b' }])],
    ['51 targets', body(Array.from({ length: 51 }, (_, i) => ({ principalType: 'USER' as const, principalId: `user${i}` })))],
    ['NUL in the body', body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }], { message: 'a\u0000b' })],
  ])('answers 400 for %s, and stores nothing', async (_name, payload) => {
    const before = await notificationCount();
    const response = await send(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    expect(await notificationCount()).toBe(before);
  });

  it('answers 404 for a target that does not exist, and stores nothing', async () => {
    const deleted = await insertUser(t.db);
    await t.db.update(user).set({ deletedAt: new Date() }).where(eq(user.id, deleted.id));
    const before = await notificationCount();
    for (const target of [
      { principalType: 'USER', principalId: 'nobody' },
      { principalType: 'USER', principalId: deleted.id },
      { principalType: 'GROUP', principalId: 'nogroup' },
      { principalType: 'GROUP', principalId: 'nogroup_ADMINS' },
      // Admins and instructors are an organisation's, never a sub-group's.
      { principalType: 'GROUP', principalId: `${cohort}_INSTRUCTORS` },
    ] as const) {
      const response = await send(body([{ principalType: 'GROUP', principalId: 'ALL_STUDENTS' }, target]));
      expect(response.statusCode, target.principalId).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
    expect(await notificationCount()).toBe(before);
  });

  it('is refused through a View-As-User token', async () => {
    const view = await superAdmin.client.post('/api/users/auth/loginAs', {
      orgId: riverside,
      email: riversideMember.ADMIN.payload.email,
    });
    expect(view.statusCode).toBe(200);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/notifications',
      headers: { authorization: `Bearer ${view.json().data.idToken}` },
      payload: body([{ principalType: 'GROUP', principalId: 'ALL_USERS' }]),
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /notifications/sent', () => {
  it('counts how many of the people reached have read each announcement', async () => {
    const id = await sendTo([
      { principalType: 'GROUP', principalId: `${riverside}_ADMINS` },
      { principalType: 'USER', principalId: riversideMember.STUDENT.userId },
    ]);
    expect(await sentEntry(id)).toMatchObject({ audience: 2, readCount: 0, sender: { id: superAdmin.userId } });
    expect((await riversideMember.STUDENT.client.post(`/api/users/notifications/${id}/read`)).statusCode).toBe(200);
    expect(await sentEntry(id)).toMatchObject({ audience: 2, readCount: 1 });
    // Marked unread again ('Remind Me at Next Login'), it no longer counts.
    expect((await riversideMember.STUDENT.client.post(`/api/users/notifications/${id}/unread`)).statusCode).toBe(200);
    expect(await sentEntry(id)).toMatchObject({ readCount: 0 });
  });

  it('counts the audience of every kind of target as the people who see it', async () => {
    for (const principalId of [
      'ALL_USERS',
      'ALL_STUDENTS',
      'ALL_INSTRUCTORS',
      'ALL_ADMINS',
      'ALL_KEYOWNERS',
      riverside,
      `${riverside}_ADMINS`,
      `${northgate}_INSTRUCTORS`,
      cohort,
    ]) {
      const id = await sendTo([{ principalType: 'GROUP', principalId }]);
      const readers = await readersOf(id);
      for (const reader of readers) await reader.client.post(`/api/users/notifications/${id}/read`);
      const entry = await sentEntry(id);
      // Every user of this file is among `everyone`: the audience is exactly who saw it.
      expect(entry, principalId).toMatchObject({ readCount: readers.length });
      if (principalId !== 'ALL_USERS') expect(entry.audience, principalId).toBe(readers.length);
    }
  });

  it('pages newest first and refuses bad paging', async () => {
    const first = await superAdmin.client.get('/api/users/notifications/sent?pageSize=2');
    expect(first.json()).toMatchObject({ page: 0, pageSize: 2 });
    expect(first.json().items).toHaveLength(2);
    const dates = first.json().items.map((item: { notification: { date: string } }) => Date.parse(item.notification.date));
    expect(dates[0]).toBeGreaterThanOrEqual(dates[1]);
    for (const query of ['pageSize=0', 'pageSize=101', 'page=-1', 'page=x']) {
      expect((await superAdmin.client.get(`/api/users/notifications/sent?${query}`)).statusCode, query).toBe(400);
    }
  });
});
