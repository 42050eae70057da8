import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseConfiguration } from '../../db/schema/cases.js';
import { group } from '../../db/schema/groups.js';
import { buildCase, type CaseInput } from '../../seed/builders.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { insertGroup, signInNewMember } from '../../../test/fixtures.js';
import type { Client } from '../../../test/client.js';
import { withPublished } from './case-access.js';

type Session = Awaited<ReturnType<typeof signInNewMember>>;

let t: TestApp;
let riverside: string;
let northgate: string;
let instructor: Session;
let admin: Session;
let provider: Session;

const LIST = /* GraphQL */ `
  query List($first: Int, $after: String) {
    caseConfigurations(first: $first, after: $after) { items { id } nextCursor totalCount }
  }
`;

async function gql(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const response = await client.post('/api/graphql', { query, variables });
  const body = response.json() as { data?: Record<string, unknown>; errors?: unknown };
  if (response.statusCode !== 200 || body.errors) throw new Error(`GraphQL ${response.statusCode}: ${JSON.stringify(body)}`);
  return body.data as Record<string, unknown>;
}

/** The stored count of a group and the cases that really name it in their readers. */
async function counts(groupId: string) {
  const [stored] = await t.db.select({ n: group.caseCount }).from(group).where(eq(group.id, groupId));
  const [real] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(caseConfiguration)
    .where(sql`${caseConfiguration.readers} @> array[${groupId}]::text[]`);
  return { stored: stored?.n, real: Number(real?.n) };
}

async function expectExact() {
  for (const id of [riverside, northgate]) {
    const { stored, real } = await counts(id);
    expect(stored, `stored count of ${id === riverside ? 'Riverside' : 'Northgate'}`).toBe(real);
  }
}

/** The list's first-page total, and the number of cases its pages really hold. */
async function listTotals(client: Client) {
  let after: string | null = null;
  let total = -1;
  let walked = 0;
  do {
    const data = await gql(client, LIST, { first: 100, ...(after ? { after } : {}) });
    const page = data.caseConfigurations as { items: unknown[]; nextCursor: string | null; totalCount: number };
    if (total < 0) total = page.totalCount;
    walked += page.items.length;
    after = page.nextCursor;
  } while (after);
  return { total, walked };
}

async function insertCases(inputs: CaseInput[]) {
  const rows = inputs.map((input) => buildCase(input));
  await t.db.insert(caseConfiguration).values(rows);
  return rows.map((row) => row.id);
}

beforeAll(async () => {
  t = await buildTestApp();
  const providerOrg = await insertGroup(t.db, { name: 'Provider', dev: true });
  riverside = await insertGroup(t.db, { name: 'Riverside' });
  northgate = await insertGroup(t.db, { name: 'Northgate', productType: 'NURSING' });
  instructor = await signInNewMember(t, riverside, { role: 'USER' });
  admin = await signInNewMember(t, riverside, { role: 'ADMIN' });
  provider = await signInNewMember(t, providerOrg, { role: 'SUPER_ADMIN' });
});

describe("an organisation's stored case count", () => {
  it('starts at the real count and follows inserts of one and of many rows', async () => {
    await expectExact();
    await insertCases([{ name: 'Single', ownerId: instructor.userId, ownerOrgId: riverside }]);
    await expectExact();
    await insertCases(
      Array.from({ length: 25 }, (_, n) => ({
        name: `Bulk ${n}`,
        ownerId: n % 3 === 0 ? instructor.userId : admin.userId,
        ownerOrgId: riverside,
        published: n % 5 === 0,
        shares: n % 7 === 0 ? [{ shareType: 'group' as const, from: admin.userId, to: northgate }] : [],
      })),
    );
    await insertCases([
      { name: 'Northgate Own', ownerId: null, ownerOrgId: northgate },
      { name: 'Northgate Published', ownerId: null, ownerOrgId: northgate, published: true },
    ]);
    await expectExact();
    expect((await counts(riverside)).real).toBe(26);
  });

  it('follows access changes: a share, a withdrawn share, publishing, a rewrite that keeps the readers', async () => {
    const rows = await t.db
      .select()
      .from(caseConfiguration)
      .where(eq(caseConfiguration.ownerOrgId, riverside))
      .orderBy(caseConfiguration.name)
      .limit(6);
    const [a, b, c, d] = rows;
    if (!a || !b || !c || !d) throw new Error('missing rows');
    await t.db
      .update(caseConfiguration)
      .set({ readers: [...a.readers, northgate] })
      .where(eq(caseConfiguration.id, a.id));
    await expectExact();
    await t.db
      .update(caseConfiguration)
      .set({ readers: b.readers.filter((reader) => reader !== northgate && reader !== riverside) })
      .where(eq(caseConfiguration.id, b.id));
    await expectExact();
    const published = withPublished(c.access, true);
    await t.db
      .update(caseConfiguration)
      .set({ access: published, readers: [...new Set([...c.readers, 'ALL_ADMINS', 'ALL_INSTRUCTORS'])] })
      .where(eq(caseConfiguration.id, c.id));
    // Many rows in one statement, some gaining and some losing the organisation.
    await t.db
      .update(caseConfiguration)
      .set({
        readers: sql`case when ${caseConfiguration.name} like 'Bulk 1%' then array[${northgate}]::text[] else ${caseConfiguration.readers} end`,
      })
      .where(eq(caseConfiguration.ownerOrgId, riverside));
    await t.db.update(caseConfiguration).set({ name: 'Renamed' }).where(eq(caseConfiguration.id, d.id));
    await expectExact();
    // Restore what the organisation read, for the list totals below.
    await t.db
      .update(caseConfiguration)
      .set({ readers: sql`array[${riverside}]::text[]` })
      .where(inArray(caseConfiguration.id, [b.id]));
    await expectExact();
  });

  it('follows copies and removals through the API: duplicate, restore of a dump, remove, bulk removal', async () => {
    const [own] = await t.db
      .select({ id: caseConfiguration.id })
      .from(caseConfiguration)
      .where(eq(caseConfiguration.ownerId, instructor.userId))
      .limit(1);
    if (!own) throw new Error('no case of the instructor');
    const copy = await gql(
      instructor.client,
      'mutation($id: ID!, $name: String!) { duplicateCaseConfiguration(id: $id, newCaseName: $name) { id } }',
      { id: own.id, name: 'Copied' },
    );
    await expectExact();
    const dump = await gql(provider.client, 'mutation($id: ID!) { dumpCase(id: $id) }', { id: own.id });
    await gql(provider.client, 'mutation($dump: JSON!, $org: ID!) { restoreCase(dump: $dump, ownerOrg: $org) { id } }', {
      dump: dump.dumpCase,
      org: riverside,
    });
    await expectExact();
    const copied = (copy.duplicateCaseConfiguration as { id: string }).id;
    await gql(instructor.client, 'mutation($id: ID!) { removeCaseConfiguration(id: $id) }', { id: copied });
    await expectExact();
    const some = await t.db
      .select({ id: caseConfiguration.id })
      .from(caseConfiguration)
      .where(eq(caseConfiguration.ownerOrgId, riverside))
      .limit(4);
    await gql(provider.client, 'mutation($ids: [ID!]!) { bulkRemoveCaseConfigurations(ids: $ids) }', {
      ids: some.map((row) => row.id),
    });
    await expectExact();
  });

  it('gives the case list the exact total of what its pages hold, for an instructor, an admin and another organisation', async () => {
    const before = { instructor: await listTotals(instructor.client), admin: await listTotals(admin.client) };
    // Cases the instructor reaches outside the organisation's readers: their own without an
    // organisation and a grant to Riverside's instructors (Northgate's published case and the
    // cases taken out of Riverside's readers that each of them wrote are reached already).
    await insertCases([{ name: 'Own, no organisation', ownerId: instructor.userId, ownerOrgId: null }]);
    const [granted] = await insertCases([{ name: 'For Riverside Instructors', ownerId: null, ownerOrgId: null }]);
    await t.db
      .update(caseConfiguration)
      .set({ readers: [`${riverside}_INSTRUCTORS`] })
      .where(eq(caseConfiguration.id, granted as string));
    await expectExact();
    for (const session of [instructor, admin]) {
      const { total, walked } = await listTotals(session.client);
      expect(total).toBe(walked);
      expect(total).toBeGreaterThan(0);
    }
    // The admin reaches neither the instructor's case without an organisation nor the instructors' grant.
    expect((await listTotals(instructor.client)).total - before.instructor.total).toBe(2);
    expect((await listTotals(admin.client)).total).toBe(before.admin.total);
    expect(before.instructor.total).toBe(before.instructor.walked);
  });
});
