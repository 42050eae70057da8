import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrgUsersPage } from '@patientsim/domain/users/org-users.schemas';
import type { FoundUserList } from '@patientsim/domain/users/users.schemas';
import { user } from '../../db/schema/auth.js';
import { group, groupMember } from '../../db/schema/groups.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { addMember, insertGroup, insertUser } from '../../../test/fixtures.js';
import {
  findGroupMembershipsPage,
  isSearchReadAlongRange,
  type MembershipFilter,
  SEARCH_RANGE_READ,
} from './member-list.repository.js';
import { updateUser } from './users.repository.js';

type Session = Awaited<ReturnType<typeof signInAs>>;

let t: TestApp;
let orgId: string;
let admin: Session;
const ids = {} as Record<'anna' | 'bob' | 'cleo' | 'late', string>;

const listEmails = async (query = '') => {
  const response = await admin.client.request({ method: 'GET', url: `/api/users/extension/groups/${orgId}/members${query}` });
  expect(response.statusCode, query).toBe(200);
  const body = response.json<OrgUsersPage>();
  return { total: body.total, emails: body.items.map((item) => item.email) };
};

const searchEmails = async (term: string) => {
  const response = await admin.client.request({
    method: 'GET',
    url: `/api/users/search/users?term=${encodeURIComponent(term)}&orgId=${orgId}`,
  });
  expect(response.statusCode, term).toBe(200);
  return response.json<FoundUserList>().users.map((found) => found.email);
};

const edit = (userId: string, payload: object) =>
  admin.client.request({ method: 'PATCH', url: `/api/users/users/${userId}?orgId=${orgId}`, payload });

beforeAll(async () => {
  t = await buildTestApp();
  const owner = await insertUser(t.db, { role: 'ADMIN', givenName: 'Ada', familyName: 'Admin', email: 'admin@listing.test' });
  orgId = await insertGroup(t.db, { name: 'Listing Academy', seats: 20, ownerId: owner.id });
  await addMember(t.db, orgId, owner.id, 'ADMIN');
  admin = await signInAs(t, owner.email, owner.password);
  for (const [key, givenName, familyName] of [
    ['anna', 'Anna', 'Baker'],
    ['bob', 'Bob', 'Carter'],
    ['cleo', 'Cleo', 'Dunn'],
  ] as const) {
    const person = await insertUser(t.db, { givenName, familyName, email: `${key}@listing.test` });
    ids[key] = person.id;
    await addMember(t.db, orgId, person.id, 'STUDENT');
  }
  // Renamed before joining: the membership takes the names the account has when it is created.
  const late = await insertUser(t.db, { givenName: 'Lee', familyName: 'Zimmer', email: 'late@listing.test' });
  ids.late = late.id;
  await updateUser(t.db, late.id, { familyName: 'Able' });
  await addMember(t.db, orgId, late.id, 'STUDENT');
});

describe('the member list and search follow changes of names and e-mail', () => {
  it('sorts and searches by the names an account has when it joins', async () => {
    expect((await listEmails()).emails).toEqual([
      'late@listing.test',
      'admin@listing.test',
      'anna@listing.test',
      'bob@listing.test',
      'cleo@listing.test',
    ]);
    expect(await searchEmails('able')).toEqual(['late@listing.test']);
    expect(await searchEmails('zimmer')).toEqual([]);
  });

  it("re-sorts the list and finds the member by their new family name after an admin's edit", async () => {
    expect((await edit(ids.cleo, { family_name: 'Aaronson' })).statusCode).toBe(200);
    expect((await listEmails()).emails).toEqual([
      'cleo@listing.test',
      'late@listing.test',
      'admin@listing.test',
      'anna@listing.test',
      'bob@listing.test',
    ]);
    expect((await listEmails('?search=aaron')).emails).toEqual(['cleo@listing.test']);
    expect((await listEmails('?search=dunn')).total).toBe(0);
    expect(await searchEmails('AARONSON')).toEqual(['cleo@listing.test']);
    expect(await searchEmails('dunn')).toEqual([]);
  });

  it('orders equal family names by the new given name', async () => {
    expect((await edit(ids.bob, { family_name: 'Baker', given_name: 'Aaron' })).statusCode).toBe(200);
    expect((await listEmails('?search=baker')).emails).toEqual(['bob@listing.test', 'anna@listing.test']);
  });

  it('finds a member by their new address and no longer by the old one', async () => {
    expect((await edit(ids.anna, { email: 'Anna.Moved@Elsewhere.test' })).statusCode).toBe(200);
    expect((await listEmails('?search=elsewhere')).emails).toEqual(['anna.moved@elsewhere.test']);
    expect((await listEmails('?search=anna@listing')).total).toBe(0);
    expect(await searchEmails('anna.moved')).toEqual(['anna.moved@elsewhere.test']);
    expect(await searchEmails('anna@listing')).toEqual([]);
  });

  it('keeps every membership of the account in step, the archived ones included', async () => {
    const other = await insertGroup(t.db, { name: 'Other Academy', seats: 5 });
    await addMember(t.db, other, ids.bob, 'STUDENT');
    await t.db.update(groupMember).set({ removedAt: new Date() }).where(eq(groupMember.groupId, other));
    await t.db.update(user).set({ email: 'bob.renamed@listing.test' }).where(eq(user.id, ids.bob));
    const copies = await t.db
      .select({ groupId: groupMember.groupId, email: groupMember.userEmail, search: groupMember.userSearch })
      .from(groupMember)
      .where(eq(groupMember.userId, ids.bob));
    expect(copies).toHaveLength(2);
    expect(copies.every((copy) => copy.email === 'bob.renamed@listing.test')).toBe(true);
    expect(copies.every((copy) => copy.search === 'baker\naaron\nbob.renamed@listing.test')).toBe(true);
  });
});

describe("a group's stored member counts", () => {
  const storedCounts = async (groupId: string) => {
    const [row] = await t.db
      .select({ all: group.memberCount, subscribed: group.subscribedMemberCount, removed: group.removedMemberCount })
      .from(group)
      .where(eq(group.id, groupId));
    return row;
  };
  const actualCounts = async (groupId: string) => {
    const rows = await t.db
      .select({ subscribed: groupMember.subscribed, removedAt: groupMember.removedAt })
      .from(groupMember)
      .where(eq(groupMember.groupId, groupId));
    return {
      all: rows.filter((row) => row.removedAt === null).length,
      subscribed: rows.filter((row) => row.removedAt === null && row.subscribed).length,
      removed: rows.filter((row) => row.removedAt !== null).length,
    };
  };

  it('follow every insert, update and delete of memberships, one or many rows at a time, in several groups', async () => {
    const first = await insertGroup(t.db, { name: 'Count Academy', seats: 50 });
    const second = await insertGroup(t.db, { name: 'Tally Academy', seats: 50 });
    const people = await Promise.all(
      Array.from({ length: 6 }, (_, n) => insertUser(t.db, { email: `count${n}@listing.test`, familyName: `Count${n}` })),
    );
    // One statement writing memberships of two groups.
    await t.db
      .insert(groupMember)
      .values([
        ...people.map((person, n) => ({ groupId: first, userId: person.id, subscribed: n % 2 === 0 })),
        ...people.slice(0, 3).map((person) => ({ groupId: second, userId: person.id })),
      ]);
    expect(await storedCounts(first)).toEqual({ all: 6, subscribed: 3, removed: 0 });
    expect(await storedCounts(second)).toEqual({ all: 3, subscribed: 0, removed: 0 });

    await t.db
      .update(groupMember)
      .set({ removedAt: new Date() })
      .where(inArray(groupMember.userId, [people[0]!.id, people[1]!.id]));
    expect(await storedCounts(first)).toEqual({ all: 4, subscribed: 2, removed: 2 });
    expect(await storedCounts(second)).toEqual({ all: 1, subscribed: 0, removed: 2 });

    await t.db.update(groupMember).set({ subscribed: true }).where(eq(groupMember.groupId, second));
    await t.db
      .update(groupMember)
      .set({ removedAt: null })
      .where(and(eq(groupMember.groupId, first), eq(groupMember.userId, people[1]!.id)));
    await t.db.delete(groupMember).where(and(eq(groupMember.groupId, first), eq(groupMember.userId, people[5]!.id)));
    // A rename reaches the memberships' copies and leaves the counts alone.
    await t.db.update(user).set({ familyName: 'Renamed' }).where(eq(user.id, people[2]!.id));
    for (const groupId of [first, second]) expect(await storedCounts(groupId)).toEqual(await actualCounts(groupId));
    expect(await storedCounts(first)).toEqual({ all: 4, subscribed: 2, removed: 1 });
  });

  it('are what the member list reports, and every page read from either end of a group is in list order', async () => {
    const before = await listEmails();
    const everyone = (await listEmails('?pageSize=100')).emails;
    expect(everyone).toHaveLength(before.total);
    const pageSize = 2;
    const pages: string[] = [];
    for (let page = 0; page * pageSize < before.total; page += 1) {
      const { total, emails } = await listEmails(`?page=${page}&pageSize=${pageSize}`);
      expect(total).toBe(before.total);
      pages.push(...emails);
    }
    expect(pages).toEqual(everyone);
    expect((await listEmails(`?page=${before.total}&pageSize=${pageSize}`)).emails).toEqual([]);

    // Removing a member through the API moves them from the list's count to the archive's.
    const removal = await admin.client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${orgId}/members`,
      payload: [ids.late],
    });
    expect(removal.statusCode, removal.body).toBe(200);
    expect((await listEmails()).total).toBe(before.total - 1);
    expect((await listEmails('?variant=archived')).emails).toEqual(['late@listing.test']);
    expect(await storedCounts(orgId)).toEqual(await actualCounts(orgId));
  });

  it("pages through a search's matches with their number on every page, past the last one too", async () => {
    const matches = (await listEmails('?search=listing.test&pageSize=100')).emails;
    expect(matches.length).toBeGreaterThan(2);
    // In the list's order.
    const everyone = (await listEmails('?pageSize=100')).emails;
    expect(matches).toEqual(everyone.filter((email) => email.includes('listing.test')));
    const pages: string[] = [];
    for (let page = 0; page * 2 < matches.length; page += 1) {
      const { total, emails } = await listEmails(`?search=listing.test&page=${page}&pageSize=2`);
      expect(total).toBe(matches.length);
      pages.push(...emails);
    }
    expect(pages).toEqual(matches);
    // Past the last match the page is empty and still says how many there are.
    expect(await listEmails(`?search=listing.test&page=${matches.length}&pageSize=2`)).toEqual({
      total: matches.length,
      emails: [],
    });
    expect(await listEmails('?search=nobody-here')).toEqual({ total: 0, emails: [] });
    // LIKE's wildcards are taken literally, and a term with a line break is matched on each field.
    expect((await listEmails(`?search=${encodeURIComponent('%_%')}`)).total).toBe(0);
    expect((await listEmails(`?search=${encodeURIComponent('baker\naaron')}`)).total).toBe(0);
    // The archive is searched on its own.
    expect((await listEmails('?variant=archived&search=late@')).emails).toEqual(['late@listing.test']);
    expect((await listEmails('?search=late@')).total).toBe(0);
  });
});

describe('a search that many members match is read along the list, one that few match from its matches', () => {
  const members = 1_200;
  let wideId: string;

  beforeAll(async () => {
    const owner = await insertUser(t.db, { role: 'ADMIN', email: 'owner@wide.test' });
    wideId = await insertGroup(t.db, { name: 'Wide Academy', seats: members + 10, ownerId: owner.id });
    // Nearly half are Zeds (the end of the list, together); every other address is at wide.test.
    await t.db.execute(sql`
      insert into "user" (id, name, email, email_verified, given_name, family_name, role, product_type, created_at, updated_at)
      select substr(md5('wide' || i), 1, 24), 'x', 'p' || i || case when i % 2 = 0 then '@wide.test' else '@narrow.test' end,
             true, 'G' || (i % 7), case when i <= 560 then 'Zed' else 'F' || lpad(i::text, 4, '0') end, 'STUDENT', 'EMS', now(), now()
        from generate_series(1, ${members}) as i`);
    await t.db.execute(sql`
      insert into group_member (group_id, user_id, role, subscribed, removed_at)
      select ${wideId}, substr(md5('wide' || i), 1, 24), 'STUDENT', i % 3 = 0, case when i % 50 = 0 then now() else null end
        from generate_series(1, ${members}) as i`);
  });

  const everyPage = async (filter: MembershipFilter, limit: number) => {
    const first = await findGroupMembershipsPage(t.db, filter, { offset: 0, limit });
    const emails: string[] = [];
    for (let offset = 0; offset < first.total + limit; offset += limit) {
      const { total, rows } = await findGroupMembershipsPage(t.db, filter, { offset, limit });
      expect(total, `${filter.term} ${filter.variant} at ${offset}`).toBe(first.total);
      emails.push(...rows.map((row) => row.email));
    }
    return { total: first.total, emails };
  };

  it('answers every page of every variant as the list filtered by the term, whichever way it is read', async () => {
    for (const variant of ['all', 'subscribed', 'archived'] as const) {
      const listed = await findGroupMembershipsPage(t.db, { groupId: wideId, variant }, { offset: 0, limit: 10_000 });
      const rows = listed.rows.map((row) => ({
        email: row.email,
        search: `${row.familyName}\n${row.givenName}\n${row.email}`.toLowerCase(),
      }));
      for (const term of ['WIDE.test', 'zed', 'p11', 'nobody']) {
        const expected = rows.filter((row) => row.search.includes(term.toLowerCase())).map((row) => row.email);
        for (const limit of [50, 7]) {
          expect(await everyPage({ groupId: wideId, variant, term }, limit), `${term} ${variant} by ${limit}`).toEqual({
            total: expected.length,
            emails: expected,
          });
        }
      }
    }
  });

  it('takes the list-order read for terms as common as those above, and the matches read for rare ones', () => {
    // 'wide.test' and 'zed' match about half of 1,176 active members, 'p11' about a tenth.
    expect(isSearchReadAlongRange(588, 1_176)).toBe(true);
    expect(isSearchReadAlongRange(549, 1_176)).toBe(true);
    expect(isSearchReadAlongRange(108, 1_176)).toBe(false);
    // A common term in a very large organisation is still a small share of it.
    expect(isSearchReadAlongRange(SEARCH_RANGE_READ.minMatches, 100_000)).toBe(false);
    expect(isSearchReadAlongRange(SEARCH_RANGE_READ.minMatches - 1, SEARCH_RANGE_READ.minMatches)).toBe(false);
  });
});
