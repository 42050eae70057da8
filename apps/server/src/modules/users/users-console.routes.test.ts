import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { prefixSubgroupName } from '@patientsim/domain/groups/group.schemas';
import type { FoundUserList, UserDetails } from '@patientsim/domain/users/users.schemas';
import { auditEvent } from '../../db/schema/audit.js';
import { user } from '../../db/schema/auth.js';
import { groupMember } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';
import { buildInvitation } from '../../seed/builders.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient, type Client } from '../../../test/client.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { addMember, insertGroup, insertUser, signInNewMember, viewingAs } from '../../../test/fixtures.js';

type Session = Awaited<ReturnType<typeof signInAs>>;

/** The provider's users view: search with deleted accounts, a user's details, and moving a person. */
let t: TestApp;
let orgA: string;
let orgB: string;
let cohortA: string;
let full: string;
let keyOwnerId: string;
let provider: Session;
const staff = {} as Record<'ADMIN' | 'USER' | 'STUDENT', Session>;

const call = (session: Session | Client, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  ('client' in session ? session.client : session).request({
    method,
    url: `/api/users${url}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const membershipsOf = (userId: string) => t.db.select().from(groupMember).where(eq(groupMember.userId, userId));

beforeAll(async () => {
  t = await buildTestApp();
  const keyOwner = await insertUser(t.db, { role: 'ADMIN', givenName: 'Kira', familyName: 'Keyholder' });
  keyOwnerId = keyOwner.id;
  orgA = await insertGroup(t.db, { name: 'Moving Alpha', seats: 20, ownerId: keyOwner.id });
  await addMember(t.db, orgA, keyOwner.id, 'ADMIN');
  cohortA = await insertGroup(t.db, { name: prefixSubgroupName(orgA, 'Cohort'), parentId: orgA });
  orgB = await insertGroup(t.db, { name: 'Moving Beta', seats: 20, productType: 'NURSING' });
  full = await insertGroup(t.db, { name: 'Moving Full', seats: 1 });
  await addMember(t.db, full, (await insertUser(t.db)).id, 'STUDENT');
  for (const role of ['ADMIN', 'USER', 'STUDENT'] as const) staff[role] = await signInNewMember(t, orgA, { role });
  const providerOrg = await insertGroup(t.db, { name: 'Moving Provider', seats: 10 });
  provider = await signInNewMember(t, providerOrg, { role: 'SUPER_ADMIN' });
});

describe('GET /search/users with includeDeleted', () => {
  it('adds deleted accounts, flagged, to the provider’s search over every user', async () => {
    const kept = await insertUser(t.db, { givenName: 'Quentin', familyName: 'Quokka', email: 'quokka-kept@moving.test' });
    const gone = await insertUser(t.db, { givenName: 'Quinn', familyName: 'Quokka', email: 'quokka-gone@moving.test' });
    await t.db.update(user).set({ deletedAt: new Date() }).where(eq(user.id, gone.id));
    const without = (await call(provider, 'GET', '/search/users?term=quokka')).json<FoundUserList>();
    expect(without.users.map((row) => row.user_id)).toEqual([kept.id]);
    expect(without.users[0]).not.toHaveProperty('deleted');
    const withDeleted = await call(provider, 'GET', '/search/users?term=quokka&includeDeleted=true');
    expect(withDeleted.statusCode).toBe(200);
    expect(withDeleted.json<FoundUserList>().users).toMatchObject([
      { user_id: kept.id, deleted: false },
      { user_id: gone.id, deleted: true },
    ]);
  });

  it('refuses includeDeleted within an organisation, and a bad flag (400)', async () => {
    for (const query of [`?term=quokka&includeDeleted=true&orgId=${orgA}`, '?term=quokka&includeDeleted=yes']) {
      const response = await call(provider, 'GET', `/search/users${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('stays the provider’s: other roles get 403', async () => {
    for (const session of Object.values(staff)) {
      expect((await call(session, 'GET', '/search/users?term=quokka&includeDeleted=true')).statusCode).toBe(403);
    }
  });
});

describe('GET /users/:id', () => {
  it('answers the account and every membership with the role there, key ownership and removals', async () => {
    const person = await insertUser(t.db, { role: 'USER', givenName: 'Dana', familyName: 'Details', productType: 'NURSING' });
    await addMember(t.db, orgA, person.id, 'ADMIN');
    await addMember(t.db, cohortA, person.id, 'ADMIN');
    await t.db.insert(groupMember).values({ groupId: orgB, userId: person.id, role: null, removedAt: new Date() });
    const response = await call(provider, 'GET', `/users/${person.id}`);
    expect(response.statusCode).toBe(200);
    const details = response.json<UserDetails>();
    expect(details.user).toMatchObject({
      user_id: person.id,
      email: person.email,
      given_name: 'Dana',
      family_name: 'Details',
      role: 'USER',
      productType: 'NURSING',
      email_verified: true,
      deleted: false,
    });
    expect(
      details.memberships.map((row) => ({
        id: row.group._id,
        role: row.role,
        removed: row.removed_at !== null,
        owner: row.key_owner,
      })),
    ).toEqual([
      { id: orgA, role: 'ADMIN', removed: false, owner: false },
      { id: orgB, role: 'USER', removed: true, owner: false },
      { id: cohortA, role: 'ADMIN', removed: false, owner: false },
    ]);
    const keyOwner = (await call(provider, 'GET', `/users/${keyOwnerId}`)).json<UserDetails>();
    expect(keyOwner.memberships).toMatchObject([{ key_owner: true, role: 'ADMIN' }]);
  });

  it('answers 404 for an unknown id, 400 for a bad one, 403 to every other role and 401 without a token', async () => {
    expect((await call(provider, 'GET', '/users/no-such-user')).statusCode).toBe(404);
    expect((await call(provider, 'GET', '/users/bad%00id')).statusCode).toBe(400);
    for (const session of Object.values(staff)) {
      expect((await call(session, 'GET', `/users/${staff.STUDENT.userId}`)).statusCode).toBe(403);
    }
    expect((await call(createClient(t.app), 'GET', `/users/${staff.STUDENT.userId}`)).statusCode).toBe(401);
  });
});

describe('POST /users/:id/move', () => {
  const move = (session: Session | Client, userId: string, body: unknown) => call(session, 'POST', `/users/${userId}/move`, body);

  it('moves a person: archived in the old organisation and out of its groups, a member of the new one with their role, sessions ended, audited', async () => {
    const person = await insertUser(t.db, { role: 'STUDENT', email: 'mover@moving.test' });
    await addMember(t.db, orgA, person.id, 'USER');
    await addMember(t.db, cohortA, person.id, 'USER');
    const session = await signInAs(t, person.email, person.password);
    const response = await move(provider, person.id, { orgId: orgB, fromOrgId: orgA });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    const rows = await membershipsOf(person.id);
    expect(rows.find((row) => row.groupId === orgA)?.removedAt).toBeInstanceOf(Date);
    expect(rows.find((row) => row.groupId === cohortA)).toBeUndefined();
    expect(rows.find((row) => row.groupId === orgB)).toMatchObject({ role: 'USER', removedAt: null });
    expect((await t.db.select().from(user).where(eq(user.id, person.id)))[0]?.activeOrgId).toBe(orgB);
    const [event] = await t.db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.targetId, person.id), eq(auditEvent.action, 'user.move')));
    expect(event).toMatchObject({
      actorId: provider.userId,
      orgId: orgB,
      details: { fromOrgId: orgA, toOrgId: orgB, role: 'USER' },
    });
    expect((await call(session, 'GET', `/extension/users/${person.id}/groups`)).statusCode).toBe(401);
    // They sign in again into the new organisation.
    const again = await signInAs(t, person.email, person.password);
    expect(again.payload.groups).toEqual([orgB]);
  });

  it('adds a person without an organisation, with the role chosen', async () => {
    const person = await insertUser(t.db, { role: 'STUDENT' });
    expect((await move(provider, person.id, { orgId: orgB, role: 'ADMIN' })).statusCode).toBe(200);
    expect(await membershipsOf(person.id)).toMatchObject([{ groupId: orgB, role: 'ADMIN', removedAt: null }]);
  });

  it('refuses the key owner (422), a full organisation (422), a member already there (409) and unknown ids (404), changing nothing', async () => {
    const person = await insertUser(t.db);
    await addMember(t.db, orgA, person.id, 'STUDENT');
    const cases: Array<[string, unknown, number, string]> = [
      [keyOwnerId, { orgId: orgB, fromOrgId: orgA }, 422, 'KEY_OWNER_CANNOT_LEAVE'],
      [person.id, { orgId: full, fromOrgId: orgA }, 422, 'SEATS_EXCEEDED'],
      [person.id, { orgId: orgA }, 409, 'CONFLICT'],
      [person.id, { orgId: orgB, fromOrgId: cohortA }, 404, 'NOT_FOUND'],
      [person.id, { orgId: cohortA, fromOrgId: orgA }, 404, 'NOT_FOUND'],
      [person.id, { orgId: 'no-such-org', fromOrgId: orgA }, 404, 'NOT_FOUND'],
      [person.id, { orgId: orgA, fromOrgId: orgB }, 404, 'NOT_FOUND'],
      ['no-such-user', { orgId: orgB }, 404, 'NOT_FOUND'],
    ];
    for (const [userId, body, status, code] of cases) {
      const response = await move(provider, userId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().code).toBe(code);
    }
    expect(await membershipsOf(person.id)).toMatchObject([{ groupId: orgA, removedAt: null }]);
    expect(await membershipsOf(keyOwnerId)).toMatchObject([{ groupId: orgA, removedAt: null }]);
  });

  it('counts pending invitations against the seats', async () => {
    const tight = await insertGroup(t.db, { name: 'Moving Tight', seats: 1 });
    await t.db
      .insert(invitation)
      .values(buildInvitation({ orgId: tight, email: 'waiting@moving.test', inviterId: provider.userId }));
    const person = await insertUser(t.db);
    const response = await move(provider, person.id, { orgId: tight });
    expect(response.statusCode).toBe(422);
    expect(await membershipsOf(person.id)).toEqual([]);
  });

  it('refuses bad input (400)', async () => {
    const person = await insertUser(t.db);
    for (const body of [
      {},
      { orgId: '' },
      { orgId: orgA, fromOrgId: orgA },
      { orgId: orgB, role: 'OWNER' },
      { orgId: orgB, extra: true },
      { orgId: 'bad\u0000id' },
      [orgB],
    ]) {
      const response = await move(provider, person.id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
    expect(await membershipsOf(person.id)).toEqual([]);
  });

  it('refuses every other role (403), no token (401), and the provider viewing as another user (403)', async () => {
    const person = await insertUser(t.db);
    for (const session of Object.values(staff)) expect((await move(session, person.id, { orgId: orgA })).statusCode).toBe(403);
    expect((await move(createClient(t.app), person.id, { orgId: orgA })).statusCode).toBe(401);
    const colleague = await insertUser(t.db, { role: 'SUPER_ADMIN' });
    const viewing = await viewingAs(t, { userId: colleague.id, viewer: provider });
    expect((await move(viewing, person.id, { orgId: orgA })).statusCode).toBe(403);
    expect((await call(viewing, 'GET', `/users/${person.id}`)).statusCode).toBe(403);
    expect(await membershipsOf(person.id)).toEqual([]);
  });
});
