import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  ArchivedUsersResult,
  FetchAllUsersResult,
  FoundUserList,
  UserSummaryList,
} from '@patientsim/domain/users/users.schemas';
import { auditEvent } from '../../db/schema/audit.js';
import { user } from '../../db/schema/auth.js';
import { groupMember } from '../../db/schema/groups.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { addMember, insertGroup, insertUser, viewingAs } from '../../../test/fixtures.js';
import { searchAllUsers } from './user-search.repository.js';

type Session = Awaited<ReturnType<typeof signInAs>>;
type Client = Session['client'];

let t: TestApp;
let orgA: string;
let orgB: string;
let cohort: string;
const as = {} as Record<
  'keyOwner' | 'admin' | 'instructor' | 'student' | 'outsider' | 'provider' | 'mixed' | 'removedAdmin' | 'demotedAdmin',
  Session
>;
const ids = {} as Record<
  'keyOwner' | 'provider' | 'promoted' | 'wildcard' | 'archived' | 'deletedAccount' | 'betaLena' | 'lone' | 'learner00',
  string
>;
const learnerIds: string[] = [];

/** Family names of the learners and of Beta's Lena (all given name Lena). */
const familyNames = new Map<string, string>();
/** The first `count` of `userIds` in id order (the order the database picks a search's matches in). */
const firstById = (userIds: string[], count: number) => [...userIds].sort().slice(0, count);
/** Ids of learners and Beta's Lena in the order searches answer (family name, then given name, e-mail). */
const byName = (userIds: string[]) =>
  userIds
    .map((id) => ({ id, family: familyNames.get(id) ?? '' }))
    .sort((a, b) => a.family.localeCompare(b.family, 'en'))
    .map((entry) => entry.id);

const get = (client: Client, url: string) => client.request({ method: 'GET', url: `/api/users${url}` });
const anonymous = () => createClient(t.app, { ip: '10.97.0.1' });
const emailsOf = (users: Array<{ email: string }>) => users.map((item) => item.email);

beforeAll(async () => {
  t = await buildTestApp();
  const keyOwner = await insertUser(t.db, { role: 'ADMIN', givenName: 'Kim', familyName: 'Aardvark', email: 'kim@alpha.test' });
  ids.keyOwner = keyOwner.id;
  orgA = await insertGroup(t.db, { name: 'Alpha Academy', seats: 100, ownerId: keyOwner.id });
  orgB = await insertGroup(t.db, { name: 'Beta College', seats: 10 });
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
    const person = await insertUser(t.db, { role, givenName: 'Zed', familyName: `Zulu ${key}`, email: `zed-${key}@alpha.test` });
    await addMember(t.db, orgA, person.id, role);
    as[key] = await signInAs(t, person.email, person.password);
  }
  const provider = await insertUser(t.db, { role: 'SUPER_ADMIN', givenName: 'Pat', familyName: 'Provider' });
  ids.provider = provider.id;
  as.provider = await signInAs(t, provider.email, provider.password);

  // 55 learners: more than one search answer of 50.
  for (let i = 0; i < 55; i += 1) {
    const nn = String(i).padStart(2, '0');
    const learner = await insertUser(t.db, { givenName: 'Lena', familyName: `Learner ${nn}`, email: `learner${nn}@alpha.test` });
    learnerIds.push(learner.id);
    familyNames.set(learner.id, `Learner ${nn}`);
    await addMember(t.db, orgA, learner.id, 'STUDENT');
    if (i < 3) await addMember(t.db, cohort, learner.id, 'STUDENT');
  }
  ids.learner00 = learnerIds[0] ?? '';
  // Global role STUDENT, instructor in Alpha: the role there overrides the global one.
  const promoted = await insertUser(t.db, {
    role: 'STUDENT',
    givenName: 'Paula',
    familyName: 'Promoted',
    email: 'paula@alpha.test',
  });
  ids.promoted = promoted.id;
  await addMember(t.db, orgA, promoted.id, 'USER');
  const wildcard = await insertUser(t.db, { givenName: 'Per%cy', familyName: 'Under_score', email: 'percy@alpha.test' });
  ids.wildcard = wildcard.id;
  await addMember(t.db, orgA, wildcard.id, 'STUDENT');
  const archived = await insertUser(t.db, { givenName: 'Arch', familyName: 'Ived', email: 'archived@alpha.test' });
  ids.archived = archived.id;
  await addMember(t.db, orgA, archived.id, 'STUDENT');
  await t.db.update(groupMember).set({ removedAt: new Date() }).where(eq(groupMember.userId, archived.id));
  // An account deleted while still listed as a member (before deletions archived memberships).
  const deletedAccount = await insertUser(t.db, { givenName: 'Del', familyName: 'Eted', email: 'deleted@alpha.test' });
  ids.deletedAccount = deletedAccount.id;
  await addMember(t.db, orgA, deletedAccount.id, 'STUDENT');
  await t.db.update(user).set({ deletedAt: new Date() }).where(eq(user.id, deletedAccount.id));

  const outsider = await insertUser(t.db, { role: 'ADMIN', givenName: 'Olga', familyName: 'Outsider', email: 'olga@beta.test' });
  await addMember(t.db, orgB, outsider.id, 'ADMIN');
  as.outsider = await signInAs(t, outsider.email, outsider.password);
  const betaLena = await insertUser(t.db, { givenName: 'Lena', familyName: 'Betaperson', email: 'lena@beta.test' });
  ids.betaLena = betaLena.id;
  familyNames.set(betaLena.id, 'Betaperson');
  await addMember(t.db, orgB, betaLena.id, 'STUDENT');
  const lone = await insertUser(t.db, { givenName: 'Lone', familyName: 'Wolf', email: 'lone@nowhere.test' });
  ids.lone = lone.id;
  // An instructor in Beta (the active organisation) who is only a student in Alpha.
  const mixed = await insertUser(t.db, { role: 'USER', givenName: 'Max', familyName: 'Mixed', email: 'max@beta.test' });
  await addMember(t.db, orgB, mixed.id, 'USER');
  await addMember(t.db, orgA, mixed.id, 'STUDENT');
  await t.db.update(user).set({ activeOrgId: orgB }).where(eq(user.id, mixed.id));
  as.mixed = await signInAs(t, mixed.email, mixed.password);

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

/** The same refusals for every new read: no token, an ended session, a demoted admin. */
function refusesEndedAndDemoted(url: () => string) {
  it('refuses no token (401), an ended session (401) and an admin demoted to student (403)', async () => {
    const none = await get(anonymous(), url());
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('UNAUTHENTICATED');
    const removed = await get(as.removedAdmin.client, url());
    expect(removed.statusCode).toBe(401);
    expect(removed.json().code).toBe('SESSION_ENDED');
    expect((await get(as.demotedAdmin.client, url())).statusCode).toBe(403);
  });
}

describe('GET /fetchall/users', () => {
  const fetchAll = async (session: Session, query: string) => {
    const response = await get(session.client, `/fetchall/users${query}`);
    expect(response.statusCode, query).toBe(200);
    return response.json<FetchAllUsersResult>().data;
  };

  it("pages the organisation's members in the database, members with an account only", async () => {
    const first = await fetchAll(as.admin, `?orgId=${orgA}`);
    // Key owner + admin, instructor, student, demoted admin + 55 learners + promoted + wildcard + mixed.
    expect(first.total).toBe(63);
    expect(first.users).toHaveLength(50);
    expect(first.users[0]).toMatchObject({ user_id: ids.keyOwner, email: 'kim@alpha.test', role: 'ADMIN', deleted: false });
    expect(Number.isNaN(Date.parse(first.users[0]?.created_at ?? ''))).toBe(false);
    const rest = await fetchAll(as.admin, `?orgId=${orgA}&offset=50&count=100`);
    expect(rest.users).toHaveLength(13);
    const all = emailsOf([...first.users, ...rest.users]);
    expect(new Set(all).size).toBe(63);
    expect(all).not.toContain('archived@alpha.test');
    expect(all).not.toContain('deleted@alpha.test');
    expect(all).not.toContain('lena@beta.test');
    const window = await fetchAll(as.admin, `?orgId=${orgA}&offset=1&count=3`);
    expect(emailsOf(window.users)).toEqual(emailsOf(first.users.slice(1, 4)));
  });

  it('includes removed members and deleted accounts, flagged deleted, with includeDeleted', async () => {
    const body = await fetchAll(as.instructor, `?orgId=${orgA}&includeDeleted=true&count=100`);
    // The 63 members, the archived member, the deleted account and the removed admin.
    expect(body.total).toBe(66);
    const flagged = body.users.filter((item) => item.deleted).map((item) => item.user_id);
    expect(flagged.sort()).toEqual([ids.archived, ids.deletedAccount, as.removedAdmin.userId].sort());
  });

  it('reports the global role, or with overrideRole the role there', async () => {
    const plain = await fetchAll(as.admin, `?orgId=${orgA}&count=100`);
    expect(plain.users.find((item) => item.user_id === ids.promoted)?.role).toBe('STUDENT');
    const overridden = await fetchAll(as.admin, `?orgId=${orgA}&count=100&overrideRole=true`);
    expect(overridden.users.find((item) => item.user_id === ids.promoted)?.role).toBe('USER');
    const demoted = overridden.users.find((item) => item.user_id === as.demotedAdmin.userId);
    expect(demoted?.role).toBe('STUDENT');
  });

  it('lists a sub-group with its members only', async () => {
    const body = await fetchAll(as.instructor, `?orgId=${cohort}`);
    expect(emailsOf(body.users)).toEqual(['learner00@alpha.test', 'learner01@alpha.test', 'learner02@alpha.test']);
  });

  it('lets the provider list any organisation, and every user without orgId', async () => {
    expect(emailsOf((await fetchAll(as.provider, `?orgId=${orgB}`)).users)).toEqual([
      'lena@beta.test',
      'max@beta.test',
      'olga@beta.test',
    ]);
    const everyone = await fetchAll(as.provider, '?count=100');
    const [{ total } = { total: 0 }] = await t.db
      .select({ total: sql<number>`count(*)::int` })
      .from(user)
      .where(sql`${user.deletedAt} is null`);
    expect(everyone.total).toBe(total);
    expect(emailsOf(everyone.users)).toEqual(expect.arrayContaining(['lena@beta.test', 'lone@nowhere.test', 'kim@alpha.test']));
    expect(emailsOf(everyone.users)).not.toContain('deleted@alpha.test');
    const withDeleted = await fetchAll(as.provider, '?count=1&includeDeleted=true');
    expect(withDeleted.total).toBe(total + 1);
  });

  it('refuses bad input with 400', async () => {
    for (const query of [
      `?orgId=${orgA}&count=101`,
      `?orgId=${orgA}&count=0`,
      `?orgId=${orgA}&offset=-1`,
      `?orgId=${orgA}&offset=abc`,
      `?orgId=${orgA}&includeDeleted=yes`,
      `?orgId=${orgA}&overrideRole=1`,
      '?orgId=bad%00id',
      '?orgId=',
    ]) {
      const response = await get(as.admin.client, `/fetchall/users${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses students (403), other organisations (404), and everyone but the provider without orgId (403)', async () => {
    expect((await get(as.student.client, `/fetchall/users?orgId=${orgA}`)).statusCode).toBe(403);
    expect((await get(as.outsider.client, `/fetchall/users?orgId=${orgA}`)).statusCode).toBe(404);
    expect((await get(as.outsider.client, `/fetchall/users?orgId=${cohort}`)).statusCode).toBe(404);
    expect((await get(as.admin.client, `/fetchall/users?orgId=${orgB}`)).statusCode).toBe(404);
    for (const session of [as.admin, as.instructor, as.student, as.keyOwner]) {
      expect((await get(session.client, '/fetchall/users')).statusCode).toBe(403);
    }
  });

  refusesEndedAndDemoted(() => `/fetchall/users?orgId=${orgA}`);
});

describe('GET /users', () => {
  const lookUp = async (session: Session, query: string) => {
    const response = await get(session.client, `/users${query}`);
    expect(response.statusCode, query).toBe(200);
    return response.json<UserSummaryList>().users;
  };

  it("searches e-mail and names within the caller's organisations, removed members included", async () => {
    const lenas = await lookUp(as.admin, '?q=lena');
    // 55 match: the first 50 by id answer, by name.
    expect(lenas.map((item) => item.user_id)).toEqual(byName(firstById(learnerIds, 50)));
    expect(lenas[0]).toEqual({
      user_id: lenas[0]?.user_id,
      email: expect.stringMatching(/^learner\d\d@alpha\.test$/),
      given_name: 'Lena',
      family_name: expect.stringMatching(/^Learner \d\d$/),
      deleted: false,
    });
    expect(await lookUp(as.admin, '?q=lena')).toEqual(lenas);
    expect(emailsOf(await lookUp(as.instructor, '?q=%20IVED%20'))).toEqual(['archived@alpha.test']);
    expect(await lookUp(as.admin, '?q=wolf')).toEqual([]);
    expect(await lookUp(as.admin, '?q=olga')).toEqual([]);
    // A deleted account is never found by a search.
    expect(await lookUp(as.admin, '?q=eted')).toEqual([]);
  });

  it('takes LIKE wildcards literally', async () => {
    expect(emailsOf(await lookUp(as.admin, `?q=${encodeURIComponent('r%c')}`))).toEqual(['percy@alpha.test']);
    expect(emailsOf(await lookUp(as.admin, `?q=${encodeURIComponent('r_s')}`))).toEqual(['percy@alpha.test']);
    expect(await lookUp(as.admin, `?q=${encodeURIComponent('%%%')}`)).toEqual([]);
  });

  it('looks ids up, repeated or comma-separated, answering only the people the caller may see', async () => {
    const repeated = await lookUp(as.admin, `?user_id=${ids.learner00}&user_id=${ids.betaLena}&user_id=${ids.lone}`);
    expect(repeated.map((item) => item.user_id)).toEqual([ids.learner00]);
    const listed = await lookUp(as.admin, `?user_id=${ids.wildcard},${ids.learner00},${ids.archived},${ids.learner00}`);
    expect(listed.map((item) => item.user_id)).toEqual([ids.archived, ids.learner00, ids.wildcard]);
    // A deleted account is still named (a case keeps its author), flagged deleted.
    expect(await lookUp(as.admin, `?user_id=${ids.deletedAccount}`)).toEqual([
      { user_id: ids.deletedAccount, email: 'deleted@alpha.test', given_name: 'Del', family_name: 'Eted', deleted: true },
    ]);
    expect(await lookUp(as.outsider, `?user_id=${ids.learner00}`)).toEqual([]);
  });

  it('takes 50 ids at a time (owner lookups are chunked by 50)', async () => {
    const fifty = learnerIds.slice(0, 50);
    expect(await lookUp(as.admin, `?user_id=${fifty.join(',')}`)).toHaveLength(50);
    const response = await get(as.admin.client, `/users?user_id=${learnerIds.slice(0, 51).join(',')}`);
    expect(response.statusCode).toBe(400);
  });

  it('scopes to the organisations where the caller may read members', async () => {
    // An instructor in Beta, a student in Alpha: Beta's people only.
    expect(emailsOf(await lookUp(as.mixed, '?q=lena'))).toEqual(['lena@beta.test']);
    expect(await lookUp(as.mixed, `?user_id=${ids.learner00}`)).toEqual([]);
  });

  it('lets the provider find and look up every user', async () => {
    expect(emailsOf(await lookUp(as.provider, '?q=wolf'))).toEqual(['lone@nowhere.test']);
    const found = await lookUp(as.provider, `?user_id=${ids.betaLena},${ids.lone},${ids.learner00}`);
    expect(found.map((item) => item.user_id).sort()).toEqual([ids.betaLena, ids.lone, ids.learner00].sort());
  });

  it('refuses bad input with 400', async () => {
    for (const query of [
      '',
      '?q=ab',
      '?q=%20a%20',
      '?q=abc%00',
      `?q=${'x'.repeat(201)}`,
      '?q=lena&q=lone',
      `?q=lena&user_id=${ids.lone}`,
      '?user_id=',
      '?user_id=,,',
      '?user_id=bad%00id',
      `?user_id=${'x'.repeat(65)}`,
    ]) {
      const response = await get(as.admin.client, `/users${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses students (403)', async () => {
    expect((await get(as.student.client, '/users?q=lena')).statusCode).toBe(403);
  });

  refusesEndedAndDemoted(() => '/users?q=lena');
});

describe('GET /search/users', () => {
  const searchPage = async (session: Session, query: string) => {
    const response = await get(session.client, `/search/users${query}`);
    expect(response.statusCode, query).toBe(200);
    return response.json<FoundUserList>();
  };
  const search = async (session: Session, query: string) => (await searchPage(session, query)).users;

  it('answers a search of 55 matches in two complete pages, by name, with the true total', async () => {
    // The learners' ids are random: a search that kept the first 50 matches by id lost five from
    // the middle of the alphabet.
    const learnerEmails = byName(learnerIds).map((_id, index) => `learner${String(index).padStart(2, '0')}@alpha.test`);
    for (const [session, query] of [
      [as.provider, '?term=learner'],
      [as.admin, `?term=learner&orgId=${orgA}`],
    ] as const) {
      const first = await searchPage(session, query);
      expect(first.total, query).toBe(55);
      expect(first.users).toHaveLength(50);
      const second = await searchPage(session, `${query}&offset=50`);
      expect(second.total, query).toBe(55);
      expect(second.users).toHaveLength(5);
      expect(emailsOf([...first.users, ...second.users]), query).toEqual(learnerEmails);
      const small = await searchPage(session, `${query}&offset=10&count=5`);
      expect(emailsOf(small.users)).toEqual(learnerEmails.slice(10, 15));
      expect(small.total).toBe(55);
      expect((await searchPage(session, `${query}&offset=55`)).users).toEqual([]);
    }
  });

  it('searches every user for the provider, by family name, given name and e-mail', async () => {
    const found = await searchPage(as.provider, '?term=lena');
    expect(found.total).toBe(56);
    expect(found.users.map((item) => item.user_id)).toEqual(byName([...learnerIds, ids.betaLena]).slice(0, 50));
    expect(await search(as.provider, '?term=lena')).toEqual(found.users);
    expect(await search(as.provider, '?term=betaperson')).toEqual([
      { user_id: ids.betaLena, email: 'lena@beta.test', given_name: 'Lena', family_name: 'Betaperson', role: 'STUDENT' },
    ]);
    expect(emailsOf(await search(as.provider, '?term=%20WOLF'))).toEqual(['lone@nowhere.test']);
    expect(await search(as.provider, '?term=eted')).toEqual([]);
    expect(emailsOf(await search(as.provider, `?term=${encodeURIComponent('_sc')}`))).toEqual(['percy@alpha.test']);
  });

  it("searches an organisation's members for its admins and instructors, with the role there", async () => {
    const found = await search(as.admin, `?term=lena&orgId=${orgA}`);
    expect(found.map((item) => item.user_id)).toEqual(byName(learnerIds).slice(0, 50));
    expect(emailsOf(await search(as.instructor, `?term=paula&orgId=${orgA}`))).toEqual(['paula@alpha.test']);
    expect((await search(as.instructor, `?term=paula&orgId=${orgA}`))[0]?.role).toBe('USER');
    // Removed members and deleted accounts are not members.
    expect(await search(as.admin, `?term=ived&orgId=${orgA}`)).toEqual([]);
    expect(await search(as.admin, `?term=eted&orgId=${orgA}`)).toEqual([]);
    expect(emailsOf(await search(as.provider, `?term=lena&orgId=${orgB}`))).toEqual(['lena@beta.test']);
    expect(emailsOf(await search(as.admin, `?term=learner&orgId=${cohort}`))).toEqual([
      'learner00@alpha.test',
      'learner01@alpha.test',
      'learner02@alpha.test',
    ]);
  });

  it('can run on the trigram indexes (the query never needs to read the whole table)', async () => {
    const plan = await t.db.transaction(async (tx) => {
      // Without a table scan or an index walk in id order, only the trigram indexes can answer.
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_indexscan = off`);
      return tx.execute(sql`explain ${searchAllUsers(tx, { term: 'lena', limit: 50 })}`);
    });
    const text = JSON.stringify(plan);
    for (const index of ['user_email_trgm_idx', 'user_given_name_trgm_idx', 'user_family_name_trgm_idx']) {
      expect(text).toContain(index);
    }
  });

  it('refuses bad input with 400', async () => {
    for (const query of [
      '',
      '?term=ab',
      '?term=%20ab%20',
      '?term=abc%00',
      `?term=${'x'.repeat(201)}`,
      '?term=lena&orgId=bad%00',
      '?term=lena&offset=-1',
      '?term=lena&count=0',
      '?term=lena&count=101',
    ]) {
      const response = await get(as.provider.client, `/search/users${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses a global search but to the provider (403), students (403) and other organisations (404)', async () => {
    for (const session of [as.admin, as.instructor, as.keyOwner, as.outsider]) {
      expect((await get(session.client, '/search/users?term=lena')).statusCode).toBe(403);
    }
    expect((await get(as.student.client, `/search/users?term=lena&orgId=${orgA}`)).statusCode).toBe(403);
    expect((await get(as.outsider.client, `/search/users?term=lena&orgId=${orgA}`)).statusCode).toBe(404);
    expect((await get(as.admin.client, `/search/users?term=lena&orgId=${orgB}`)).statusCode).toBe(404);
  });

  it('keeps the provider to what the user sees while viewing the product as them', async () => {
    const viewing = await viewingAs(t, { userId: as.admin.userId, viewer: as.provider, ip: '10.97.0.2' });
    expect((await get(viewing, `/search/users?term=lena&orgId=${orgA}`)).statusCode).toBe(200);
    expect((await get(viewing, '/search/users?term=lena')).statusCode).toBe(403);
    expect((await get(viewing, '/fetchall/users')).statusCode).toBe(403);
    expect(emailsOf((await get(viewing, '/users?q=lena')).json<UserSummaryList>().users)).not.toContain('lena@beta.test');
  });

  refusesEndedAndDemoted(() => `/search/users?term=lena&orgId=${orgA}`);
});

describe('GET /archived-users', () => {
  const archive = async (session: Session, query: string) => {
    const response = await get(session.client, `/archived-users${query}`);
    expect(response.statusCode, query).toBe(200);
    return response.json<ArchivedUsersResult>();
  };

  it("lists the organisation's removed members, paged", async () => {
    const body = await archive(as.instructor, `?orgId=${orgA}`);
    expect(body.total).toBe(2);
    expect(body.archivedusers.map((item) => item.user_id)).toEqual([ids.archived, as.removedAdmin.userId]);
    expect(body.archivedusers[0]).toMatchObject({ email: 'archived@alpha.test', role: 'STUDENT', deleted: false });
    expect(Number.isNaN(Date.parse(body.archivedusers[0]?.removed_at ?? ''))).toBe(false);
    expect(body.archivedusers[1]?.role).toBe('ADMIN');
    const second = await archive(as.admin, `?orgId=${orgA}&offset=1&count=1`);
    expect(second).toMatchObject({ total: 2, archivedusers: [{ user_id: as.removedAdmin.userId }] });
    expect((await archive(as.admin, `?orgId=${cohort}`)).archivedusers).toEqual([]);
  });

  it('filters by a plain substring: regular-expression syntax is matched literally, never run', async () => {
    expect((await archive(as.admin, `?orgId=${orgA}&filter=%20IVED`)).archivedusers.map((item) => item.email)).toEqual([
      'archived@alpha.test',
    ]);
    for (const filter of ['arch.*', '^arch', '(a+)+$', '[a-z]+', 'zed|arch']) {
      const body = await archive(as.admin, `?orgId=${orgA}&filter=${encodeURIComponent(filter)}`);
      expect(body, filter).toEqual({ archivedusers: [], total: 0 });
    }
  });

  it('refuses bad input with 400', async () => {
    for (const query of [
      '?orgId=bad%00id',
      '?filter=ab',
      `?orgId=${orgA}&filter=ab`,
      `?orgId=${orgA}&filter=abc%00`,
      `?orgId=${orgA}&count=101`,
      `?orgId=${orgA}&offset=-3`,
    ]) {
      const response = await get(as.admin.client, `/archived-users${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses students (403) and other organisations (404); the provider reads any', async () => {
    expect((await get(as.student.client, `/archived-users?orgId=${orgA}`)).statusCode).toBe(403);
    expect((await get(as.outsider.client, `/archived-users?orgId=${orgA}`)).statusCode).toBe(404);
    expect((await get(as.admin.client, `/archived-users?orgId=${orgB}`)).statusCode).toBe(404);
    expect((await archive(as.provider, `?orgId=${orgA}`)).total).toBe(2);
  });

  refusesEndedAndDemoted(() => `/archived-users?orgId=${orgA}`);

  it("answers without orgId for the caller's active organisation, with the same guard", async () => {
    expect(await archive(as.admin, '')).toEqual(await archive(as.admin, `?orgId=${orgA}`));
    expect((await archive(as.instructor, '?offset=1&count=1')).archivedusers).toMatchObject([
      { user_id: as.removedAdmin.userId },
    ]);
    expect((await archive(as.admin, '?filter=IVED')).archivedusers.map((item) => item.email)).toEqual(['archived@alpha.test']);
    // The active organisation, not any organisation the caller belongs to: Beta has no removed members.
    expect(await archive(as.mixed, '')).toEqual({ archivedusers: [], total: 0 });
    expect(await archive(as.outsider, '')).toEqual({ archivedusers: [], total: 0 });
    const student = await get(as.student.client, '/archived-users');
    expect(student.statusCode).toBe(403);
    expect(student.json().code).toBe('FORBIDDEN');
    // The provider belongs to no organisation: there is none to answer for.
    const provider = await get(as.provider.client, '/archived-users');
    expect(provider.statusCode).toBe(404);
    expect(provider.json().code).toBe('NOT_FOUND');
  });

  refusesEndedAndDemoted(() => '/archived-users');
});

describe('DELETE /users/:id', () => {
  const remove = (client: Client, userId: string) => client.request({ method: 'DELETE', url: `/api/users/users/${userId}` });
  const userRow = async (id: string) => (await t.db.select().from(user).where(eq(user.id, id)))[0];
  const memberships = (id: string) => t.db.select().from(groupMember).where(eq(groupMember.userId, id));

  it('deletes an account: it is kept but marked deleted, archived in its organisations, its sessions ended, audited', async () => {
    const member = await insertUser(t.db, { givenName: 'Gone', familyName: 'Soon', email: 'gone@alpha.test' });
    await addMember(t.db, orgA, member.id, 'STUDENT');
    await addMember(t.db, cohort, member.id, 'STUDENT');
    await addMember(t.db, orgB, member.id, 'STUDENT');
    const memberSession = await signInAs(t, member.email, member.password);
    const response = await remove(as.provider.client, member.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect((await userRow(member.id))?.deletedAt).toBeInstanceOf(Date);
    const rows = await memberships(member.id);
    expect(rows.map((row) => row.groupId).sort()).toEqual([orgA, orgB].sort());
    expect(rows.every((row) => row.removedAt !== null)).toBe(true);
    const [event] = await t.db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.targetId, member.id), eq(auditEvent.action, 'user.delete')))
      .orderBy(desc(auditEvent.createdAt));
    expect(event).toMatchObject({ actorId: ids.provider, onBehalfOfId: null, targetType: 'user' });
    expect((event?.details as { organisations: string[] }).organisations.sort()).toEqual([orgA, orgB].sort());
    // Its token and session are dead, it cannot sign in again, and it shows in the archive, flagged deleted.
    const denied = await get(memberSession.client, '/extension/users/' + member.id + '/groups');
    expect(denied.statusCode).toBe(401);
    expect((await memberSession.client.post('/api/users/auth/token')).statusCode).toBe(401);
    const signIn = await createClient(t.app, { ip: '10.97.0.3' }).post('/api/users/auth/sign-in', {
      email: member.email,
      password: member.password,
    });
    expect(signIn.statusCode).toBe(401);
    const archived = (await get(as.admin.client, `/archived-users?orgId=${orgA}&filter=gone`)).json<ArchivedUsersResult>();
    expect(archived.archivedusers).toMatchObject([{ user_id: member.id, deleted: true }]);
    // Deleted already: 404, and no second audit event.
    expect((await remove(as.provider.client, member.id)).statusCode).toBe(404);
    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.targetId, member.id));
    expect(events.filter((row) => row.action === 'user.delete')).toHaveLength(1);
  });

  it("refuses the key owner of an organisation (422) and one's own account (403), changing nothing", async () => {
    const keyOwner = await remove(as.provider.client, ids.keyOwner);
    expect(keyOwner.statusCode).toBe(422);
    expect(keyOwner.json().code).toBe('KEY_OWNER_CANNOT_LEAVE');
    expect((await userRow(ids.keyOwner))?.deletedAt).toBeNull();
    expect((await memberships(ids.keyOwner)).every((row) => row.removedAt === null)).toBe(true);
    const self = await remove(as.provider.client, ids.provider);
    expect(self.statusCode).toBe(403);
    expect((await userRow(ids.provider))?.deletedAt).toBeNull();
  });

  it('answers 404 for an unknown id and 400 for a bad one', async () => {
    expect((await remove(as.provider.client, 'no-such-user')).statusCode).toBe(404);
    const bad = await remove(as.provider.client, 'bad%00id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_FAILED');
  });

  it('refuses everyone but the provider (403), no token (401), ended sessions (401), and viewing as another user', async () => {
    const member = await insertUser(t.db, { email: 'kept@alpha.test' });
    await addMember(t.db, orgA, member.id, 'STUDENT');
    for (const session of [as.keyOwner, as.admin, as.instructor, as.student, as.demotedAdmin]) {
      expect((await remove(session.client, member.id)).statusCode).toBe(403);
    }
    expect((await remove(anonymous(), member.id)).statusCode).toBe(401);
    expect((await remove(as.removedAdmin.client, member.id)).statusCode).toBe(401);
    const colleague = await insertUser(t.db, { role: 'SUPER_ADMIN' });
    const viewing = await viewingAs(t, { userId: colleague.id, viewer: as.provider, ip: '10.97.0.4' });
    expect((await remove(viewing, member.id)).statusCode).toBe(403);
    expect((await userRow(member.id))?.deletedAt).toBeNull();
    const signedOut = await signInAs(t, colleague.email, colleague.password);
    expect((await signedOut.client.post('/api/users/auth/sign-out')).statusCode).toBe(200);
    expect((await remove(signedOut.client, member.id)).statusCode).toBe(401);
    expect((await userRow(member.id))?.deletedAt).toBeNull();
  });
});
