import { eq } from 'drizzle-orm';
import { and, desc } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrgUser, OrgUsersPage } from '@patientsim/domain/users/org-users.schemas';
import { auditEvent } from '../../db/schema/audit.js';
import { user } from '../../db/schema/auth.js';
import { groupMember } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { addMember, insertGroup, insertUser } from '../../../test/fixtures.js';

type Session = Awaited<ReturnType<typeof signInAs>>;

let t: TestApp;
let orgA: string;
let orgB: string;
let cohort: string;
const as = {} as Record<'keyOwner' | 'admin' | 'instructor' | 'student' | 'outsider' | 'removedAdmin' | 'demotedAdmin', Session>;
const ids = {} as Record<'keyOwner' | 'archived' | 'subscribed' | 'wildcard', string>;

const list = (session: Session, groupId: string, query = '') =>
  session.client.request({ method: 'GET', url: `/api/users/extension/groups/${groupId}/members${query}` });

const emails = (items: OrgUser[]) => items.map((item) => item.email);

beforeAll(async () => {
  t = await buildTestApp();
  const keyOwner = await insertUser(t.db, { role: 'ADMIN', givenName: 'Kim', familyName: 'Aardvark' });
  ids.keyOwner = keyOwner.id;
  orgA = await insertGroup(t.db, { name: 'Alpha Academy', seats: 100, ownerId: keyOwner.id });
  orgB = await insertGroup(t.db, { name: 'Beta College', seats: 5 });
  cohort = await insertGroup(t.db, { name: 'Alph::Cohort', parentId: orgA });
  await addMember(t.db, orgA, keyOwner.id, 'ADMIN');
  as.keyOwner = await signInAs(t, keyOwner.email, keyOwner.password);
  for (const [key, role] of [
    ['admin', 'ADMIN'],
    ['instructor', 'USER'],
    ['student', 'STUDENT'],
    ['removedAdmin', 'ADMIN'],
    ['demotedAdmin', 'ADMIN'],
  ] as const) {
    const person = await insertUser(t.db, { role, givenName: 'Zed', familyName: `Zulu ${key}` });
    await addMember(t.db, orgA, person.id, role);
    as[key] = await signInAs(t, person.email, person.password);
  }
  const outsider = await insertUser(t.db, { role: 'ADMIN' });
  await addMember(t.db, orgB, outsider.id, 'ADMIN');
  as.outsider = await signInAs(t, outsider.email, outsider.password);

  // 55 learners, so that the members fill more than one page of 50.
  for (let i = 0; i < 55; i += 1) {
    const nn = String(i).padStart(2, '0');
    const learner = await insertUser(t.db, { givenName: 'Lena', familyName: `Learner ${nn}`, email: `learner${nn}@alpha.test` });
    await addMember(t.db, orgA, learner.id, 'STUDENT');
    if (i < 3) await addMember(t.db, cohort, learner.id, 'STUDENT');
  }
  const wildcard = await insertUser(t.db, { givenName: 'Per%cy', familyName: 'Under_score', email: 'percy@alpha.test' });
  ids.wildcard = wildcard.id;
  await addMember(t.db, orgA, wildcard.id, 'STUDENT');
  const subscribed = await insertUser(t.db, { givenName: 'Sam', familyName: 'Subscriber', email: 'sam@alpha.test' });
  ids.subscribed = subscribed.id;
  await addMember(t.db, orgA, subscribed.id, 'USER');
  await t.db.update(groupMember).set({ subscribed: true }).where(eq(groupMember.userId, subscribed.id));
  const archived = await insertUser(t.db, { givenName: 'Arch', familyName: 'Ived', email: 'archived@alpha.test' });
  ids.archived = archived.id;
  await addMember(t.db, orgA, archived.id, 'STUDENT');
  await t.db.update(groupMember).set({ removedAt: new Date() }).where(eq(groupMember.userId, archived.id));
  const expiresAt = new Date(Date.now() + 86_400_000);
  await t.db.insert(invitation).values([
    { id: 'inv-pending', orgId: orgA, email: 'a-pending@alpha.test', role: 'USER', tokenHash: 'hash-pending', expiresAt },
    {
      id: 'inv-declined',
      orgId: orgA,
      email: 'b-declined@alpha.test',
      status: 'declined',
      tokenHash: 'hash-declined',
      expiresAt,
    },
    {
      id: 'inv-sub',
      orgId: orgA,
      email: 'c-sub@alpha.test',
      throughSubscription: true,
      tokenHash: 'hash-sub',
      expiresAt,
    },
    { id: 'inv-accepted', orgId: orgA, email: 'd-accepted@alpha.test', status: 'accepted', tokenHash: 'hash-acc', expiresAt },
    { id: 'inv-other', orgId: orgB, email: 'e-other@alpha.test', tokenHash: 'hash-other', expiresAt },
  ]);

  // The removed and the demoted admin keep their tokens; the organisation's rules must not.
  const removal = await as.admin.client.request({
    method: 'DELETE',
    url: `/api/users/extension/groups/${orgA}/members`,
    payload: [as.removedAdmin.userId],
  });
  expect(removal.statusCode).toBe(200);
  await t.db.update(groupMember).set({ role: 'STUDENT' }).where(eq(groupMember.userId, as.demotedAdmin.userId));
  t.app.cache.clear();
});

describe('GET /extension/groups/:id/members', () => {
  it('pages the members first, then the pending and declined invitees', async () => {
    const first = await list(as.admin, orgA);
    expect(first.statusCode).toBe(200);
    const page0 = first.json<OrgUsersPage>();
    // 1 key owner + 4 remaining staff + 55 learners + wildcard + subscribed = 62 members; 3 open invitations.
    expect(page0).toMatchObject({ total: 65, page: 0, pageSize: 50 });
    expect(page0.items).toHaveLength(50);
    expect(page0.items[0]).toMatchObject({ user_id: ids.keyOwner, key_owner: true, role: 'ADMIN', pending: false });
    const second = (await list(as.admin, orgA, '?page=1')).json<OrgUsersPage>();
    expect(second.items).toHaveLength(15);
    expect(emails(second.items).slice(-3)).toEqual(['a-pending@alpha.test', 'b-declined@alpha.test', 'c-sub@alpha.test']);
    expect(second.items.at(-3)).toMatchObject({ pending: true, declined: false, role: 'USER', user_id: null });
    expect(second.items.at(-2)).toMatchObject({ pending: false, declined: true });
    expect(second.items.slice(0, -3).every((item) => item.user_id !== null && !item.pending)).toBe(true);
    const all = [...page0.items, ...second.items];
    expect(new Set(emails(all)).size).toBe(65);
    expect(emails(all)).not.toContain('archived@alpha.test');
    expect(emails(all)).not.toContain('d-accepted@alpha.test');
    expect(emails(all)).not.toContain('e-other@alpha.test');
  });

  it('takes an offset and a page size, across the members and invitees boundary', async () => {
    const response = await list(as.admin, orgA, '?offset=60&pageSize=4');
    const body = response.json<OrgUsersPage>();
    expect(body.total).toBe(65);
    expect(body.items).toHaveLength(4);
    expect(body.items.slice(0, 2).every((item) => item.user_id !== null)).toBe(true);
    expect(emails(body.items.slice(2))).toEqual(['a-pending@alpha.test', 'b-declined@alpha.test']);
    expect((await list(as.admin, orgA, '?page=9')).json<OrgUsersPage>().items).toEqual([]);
  });

  it('searches e-mails and names in the database, wildcards taken literally', async () => {
    const byName = (await list(as.admin, orgA, '?search=learner%2005')).json<OrgUsersPage>();
    expect(emails(byName.items)).toEqual(['learner05@alpha.test']);
    const byEmail = (await list(as.admin, orgA, '?search=%20PENDING%20')).json<OrgUsersPage>();
    expect(emails(byEmail.items)).toEqual(['a-pending@alpha.test']);
    const percent = (await list(as.admin, orgA, `?search=${encodeURIComponent('r%c')}`)).json<OrgUsersPage>();
    expect(emails(percent.items)).toEqual(['percy@alpha.test']);
    const underscore = (await list(as.admin, orgA, `?search=${encodeURIComponent('r_s')}`)).json<OrgUsersPage>();
    expect(emails(underscore.items)).toEqual(['percy@alpha.test']);
    const noLiteral = (await list(as.admin, orgA, `?search=${encodeURIComponent('%%%')}`)).json<OrgUsersPage>();
    expect(noLiteral.total).toBe(0);
  });

  it('refuses a search of 1 or 2 characters, NUL and oversized input with 400', async () => {
    for (const query of [
      '?search=ab',
      '?search=%20a%20',
      '?search=abc%00',
      `?search=${'x'.repeat(201)}`,
      '?pageSize=101',
      '?page=-1',
      '?variant=nope',
    ]) {
      const response = await list(as.admin, orgA, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await list(as.admin, 'bad%00id')).statusCode).toBe(400);
  });

  it('lists the subscribed variant: subscribed memberships and invitations only', async () => {
    const body = (await list(as.admin, orgA, '?variant=subscribed')).json<OrgUsersPage>();
    expect(emails(body.items)).toEqual(['sam@alpha.test', 'c-sub@alpha.test']);
    expect(body.items.every((item) => item.subscribed)).toBe(true);
  });

  it('lists the archived variant: removed members, flagged deleted', async () => {
    const body = (await list(as.instructor, orgA, '?variant=archived')).json<OrgUsersPage>();
    expect(body.total).toBe(2);
    expect(emails(body.items)).toContain('archived@alpha.test');
    expect(body.items.every((item) => item.deleted && !item.pending)).toBe(true);
  });

  it('lists a sub-group with its members only', async () => {
    const body = (await list(as.instructor, cohort)).json<OrgUsersPage>();
    expect(emails(body.items)).toEqual(['learner00@alpha.test', 'learner01@alpha.test', 'learner02@alpha.test']);
    expect(body.items.every((item) => !item.key_owner)).toBe(true);
  });

  it('lets instructors read, refuses students (403) and other organisations (404)', async () => {
    expect((await list(as.instructor, orgA)).statusCode).toBe(200);
    expect((await list(as.student, orgA)).statusCode).toBe(403);
    expect((await list(as.outsider, orgA)).statusCode).toBe(404);
    expect((await list(as.outsider, cohort)).statusCode).toBe(404);
    expect((await list(as.admin, orgB)).statusCode).toBe(404);
  });

  it('refuses a removed admin (session ended) and a demoted one (403)', async () => {
    expect((await list(as.removedAdmin, orgA)).statusCode).toBe(401);
    expect((await list(as.demotedAdmin, orgA)).statusCode).toBe(403);
  });
});

describe('PATCH /users/:id?orgId= (an admin edits a member)', () => {
  const edit = (session: Session, userId: string, payload: unknown, orgId = orgA) =>
    session.client.request({ method: 'PATCH', url: `/api/users/users/${userId}?orgId=${orgId}`, payload: payload as object });
  const fresh = async (role: 'STUDENT' | 'USER' | 'ADMIN' = 'STUDENT') => {
    const person = await insertUser(t.db, { role, givenName: 'Fresh', familyName: 'Member' });
    await addMember(t.db, orgA, person.id, role);
    return person;
  };
  const userRow = async (id: string) => (await t.db.select().from(user).where(eq(user.id, id)))[0];
  const memberRole = async (id: string) =>
    (
      await t.db
        .select()
        .from(groupMember)
        .where(and(eq(groupMember.userId, id), eq(groupMember.groupId, orgA)))
    )[0]?.role;

  it('changes names and the role there, with an audit event', async () => {
    const member = await fresh();
    const response = await edit(as.admin, member.id, { given_name: ' Nora ', family_name: 'Newname', role: 'USER' });
    expect(response.statusCode).toBe(200);
    expect(await userRow(member.id)).toMatchObject({ givenName: 'Nora', familyName: 'Newname', name: 'Nora Newname' });
    expect(await memberRole(member.id)).toBe('USER');
    const [event] = await t.db
      .select()
      .from(auditEvent)
      .where(eq(auditEvent.targetId, member.id))
      .orderBy(desc(auditEvent.createdAt));
    expect(event).toMatchObject({ action: 'org.user.update', actorId: as.admin.userId, orgId: orgA });
    expect(event?.details).toMatchObject({ fields: ['givenName', 'familyName', 'role'], from: 'STUDENT', to: 'USER' });
  });

  it("reaches the member's next token at once: the write clears the identity cache", async () => {
    const member = await fresh();
    // Signing in read the member's identity through the cache: only a clear lets the renewal see the change.
    const memberSession = await signInAs(t, member.email, member.password);
    expect(memberSession.payload.role).toBe('STUDENT');
    const clear = vi.spyOn(t.app.cache, 'clear');
    try {
      expect((await edit(as.admin, member.id, { role: 'USER' })).statusCode).toBe(200);
      expect(clear).toHaveBeenCalled();
    } finally {
      clear.mockRestore();
    }
    const renewed = await memberSession.client.post('/api/users/auth/token');
    expect(renewed.json().idTokenPayload.role).toBe('USER');
  });

  it('moves a member to a new address without a password: their sessions end and the address must verify', async () => {
    const member = await fresh();
    const memberSession = await signInAs(t, member.email, member.password);
    const response = await edit(as.admin, member.id, { email: 'Moved.Member@Alpha.test' });
    expect(response.statusCode).toBe(200);
    expect(await userRow(member.id)).toMatchObject({ email: 'moved.member@alpha.test', emailVerified: false });
    expect((await memberSession.client.post('/api/users/auth/token')).statusCode).toBe(401);
    await vi.waitFor(() => {
      if (!t.outbox.some((mail) => mail.to === 'moved.member@alpha.test')) throw new Error('no mail yet');
    });
  });

  it('sends nothing for an unchanged address (the session stays)', async () => {
    const member = await fresh();
    const memberSession = await signInAs(t, member.email, member.password);
    expect((await edit(as.admin, member.id, { email: member.email, given_name: 'Same' })).statusCode).toBe(200);
    expect((await memberSession.client.post('/api/users/auth/token')).statusCode).toBe(200);
  });

  it("refuses a role above the actor's own rank, and members ranked above the actor", async () => {
    const member = await fresh();
    const above = await edit(as.admin, member.id, { role: 'SUPER_ADMIN' });
    expect(above.statusCode).toBe(403);
    expect(await memberRole(member.id)).toBe('STUDENT');
    const admin = await fresh('ADMIN');
    expect((await edit(as.instructor, admin.id, { given_name: 'Nope' })).statusCode).toBe(403);
  });

  it('lets instructors edit names but never roles (decision 3)', async () => {
    const member = await fresh();
    expect((await edit(as.instructor, member.id, { given_name: 'Ines' })).statusCode).toBe(200);
    const role = await edit(as.instructor, member.id, { role: 'STUDENT' });
    expect(role.statusCode).toBe(200);
    expect((await edit(as.instructor, member.id, { role: 'USER' })).statusCode).toBe(403);
    expect(await memberRole(member.id)).toBe('STUDENT');
    expect((await edit(as.student, member.id, { given_name: 'Stu' })).statusCode).toBe(403);
  });

  it("keeps the key owner's role from being lowered by others", async () => {
    const response = await edit(as.admin, ids.keyOwner, { role: 'STUDENT' });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('KEY_OWNER_ROLE_LOCKED');
    expect((await edit(as.admin, ids.keyOwner, { given_name: 'Kimberly' })).statusCode).toBe(200);
  });

  it('answers 404 for another organisation and for a user who is not a member here', async () => {
    const member = await fresh();
    expect((await edit(as.outsider, member.id, { given_name: 'X' })).statusCode).toBe(404);
    expect((await edit(as.admin, member.id, { given_name: 'X' }, orgB)).statusCode).toBe(404);
    const stranger = await insertUser(t.db);
    expect((await edit(as.admin, stranger.id, { given_name: 'X' })).statusCode).toBe(404);
    expect((await edit(as.admin, ids.archived, { given_name: 'X' })).statusCode).toBe(404);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const member = await fresh();
    for (const payload of [
      {},
      { given_name: 'a\u0000b' },
      { given_name: 'x'.repeat(500) },
      { role: 'OWNER' },
      { email: 'not-an-email' },
      { extra: 1 },
    ]) {
      const response = await edit(as.admin, member.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(
      (
        await as.admin.client.request({
          method: 'PATCH',
          url: `/api/users/users/${member.id}?orgId=bad%00`,
          payload: { given_name: 'Y' },
        })
      ).statusCode,
    ).toBe(400);
    expect(await userRow(member.id)).toMatchObject({ givenName: 'Fresh', familyName: 'Member' });
  });

  it('refuses a removed admin (401) and a demoted one (403)', async () => {
    const member = await fresh();
    expect((await edit(as.removedAdmin, member.id, { given_name: 'X' })).statusCode).toBe(401);
    expect((await edit(as.demotedAdmin, member.id, { given_name: 'X' })).statusCode).toBe(403);
  });

  it('leaves PATCH /users/:id without orgId to the own profile', async () => {
    const own = await as.student.client.request({
      method: 'PATCH',
      url: `/api/users/users/${as.student.userId}`,
      payload: { given_name: 'Selfie' },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ given_name: 'Selfie', emailChanged: false });
    const other = await as.admin.client.request({
      method: 'PATCH',
      url: `/api/users/users/${as.student.userId}`,
      payload: { given_name: 'X' },
    });
    expect(other.statusCode).toBe(404);
  });
});
