/**
 * A person with no organisation reads the published scenarios of their product type's public
 * content organisation (spec section 1, decisions 9 and 18), and nothing else: not another product
 * type's content, not unpublished content, not the cases they wrote in an organisation they left,
 * and they write nothing. Members of an organisation keep the access they had.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseConfiguration, caseFavorite } from '../../db/schema/cases.js';
import { group } from '../../db/schema/groups.js';
import { buildCase, type CaseInput } from '../../seed/builders.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import type { Client } from '../../../test/client.js';
import { insertGroup, insertUser, signInNewMember } from '../../../test/fixtures.js';
import { signInAs } from '../../../test/sign-in-client.js';

type Session = Awaited<ReturnType<typeof signInAs>>;

let t: TestApp;
let emsContent: string;
let riverside: string;
let emsReader: Session;
let nursingReader: Session;
let riversideStudent: Session;
let riversideAdmin: Session;
let endedReader: Session;
/** Cases by name. */
const ids: Record<string, string> = {};

async function insertCase(input: CaseInput & { name: string }) {
  const row = buildCase(input);
  await t.db.insert(caseConfiguration).values(row);
  ids[input.name] = row.id;
}

async function gql(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const response = await client.post('/api/graphql', { query, variables });
  return { status: response.statusCode, body: response.json() };
}

async function listed(client: Client, variables: Record<string, unknown> = {}) {
  const { status, body } = await gql(
    client,
    'query($withAccess: CaseAccessKind, $search: String) { caseConfigurations(withAccess: $withAccess, search: $search, first: 100) { totalCount items { name canUpdate } } }',
    variables,
  );
  expect(status, JSON.stringify(body.errors)).toBe(200);
  return body.data.caseConfigurations as { totalCount: number; items: { name: string; canUpdate: boolean }[] };
}

const namesOf = (page: { items: { name: string }[] }) => page.items.map((item) => item.name).sort();

async function readOne(client: Client, name: string) {
  const { body } = await gql(client, 'query($id: ID!) { caseConfiguration(id: $id) { name canUpdate } }', { id: ids[name] });
  return body.data.caseConfiguration as { name: string; canUpdate: boolean } | null;
}

/** A person who signed up alone: no organisation, the product type of the account type they chose. */
async function signInWithoutOrganisation(productType: 'EMS' | 'NURSING') {
  const account = await insertUser(t.db, { role: 'STUDENT', productType });
  return { ...(await signInAs(t, account.email, account.password)), email: account.email };
}

beforeAll(async () => {
  t = await buildTestApp();
  emsContent = await insertGroup(t.db, { name: 'EMS Public Scenarios', contentFor: 'EMS' });
  const nursingContent = await insertGroup(t.db, {
    name: 'Nursing Public Scenarios',
    productType: 'NURSING',
    contentFor: 'NURSING',
  });
  riverside = await insertGroup(t.db, { name: 'Riverside' });
  riversideStudent = await signInNewMember(t, riverside, { role: 'STUDENT' });
  riversideAdmin = await signInNewMember(t, riverside, { role: 'ADMIN' });
  emsReader = await signInWithoutOrganisation('EMS');
  nursingReader = await signInWithoutOrganisation('NURSING');
  endedReader = await signInWithoutOrganisation('EMS');
  expect((await endedReader.client.post('/api/users/auth/sign-out')).statusCode).toBe(200);

  await insertCase({ name: 'EMS Open', ownerOrgId: emsContent, published: true, needsEcUpdate: true });
  await insertCase({ name: 'EMS Draft', ownerOrgId: emsContent, published: false });
  await insertCase({ name: 'Nursing Open', ownerOrgId: nursingContent, published: true });
  await insertCase({ name: 'Riverside Own', ownerId: riversideStudent.userId, ownerOrgId: riverside });
  await insertCase({ name: 'Riverside Published', ownerOrgId: riverside, published: true });
  // Written by the EMS reader in an organisation they have since left: theirs no more.
  await insertCase({ name: 'Written Before Leaving', ownerId: emsReader.userId, ownerOrgId: riverside });
  // Shared with the content organisation by another organisation: not its own content.
  await insertCase({
    name: 'Shared Into Content',
    ownerOrgId: riverside,
    published: true,
    shares: [{ shareType: 'group', from: riversideAdmin.userId, to: emsContent }],
  });
});

describe('a person without an organisation reads their product type’s public content', () => {
  it('lists only the published scenarios of their product type’s public content organisation, read-only', async () => {
    const ems = await listed(emsReader.client);
    expect(ems).toEqual({ totalCount: 1, items: [{ name: 'EMS Open', canUpdate: false }] });
    expect(namesOf(await listed(nursingReader.client))).toEqual(['Nursing Open']);
    // A search narrows the same library; it never reaches past it.
    expect(namesOf(await listed(emsReader.client, { search: 'Riverside' }))).toEqual([]);
    expect(namesOf(await listed(emsReader.client, { search: 'Open' }))).toEqual(['EMS Open']);
  });

  it('opens a public scenario, and reads nothing else: another product type’s, unpublished, shared in, or once their own', async () => {
    expect(await readOne(emsReader.client, 'EMS Open')).toEqual({ name: 'EMS Open', canUpdate: false });
    for (const name of ['Nursing Open', 'EMS Draft', 'Shared Into Content', 'Written Before Leaving', 'Riverside Published']) {
      expect(await readOne(emsReader.client, name), name).toBeNull();
    }
    expect(await readOne(nursingReader.client, 'EMS Open')).toBeNull();
  });

  it('has nothing to edit, run or share', async () => {
    for (const withAccess of ['WRITE', 'RUN', 'SHARE']) {
      expect(await listed(emsReader.client, { withAccess }), withAccess).toEqual({ totalCount: 0, items: [] });
    }
  });

  it('writes nothing: saving, removing, duplicating and updating are refused, favourites too, and nothing changes', async () => {
    const id = ids['EMS Open'];
    const before = await t.db
      .select()
      .from(caseConfiguration)
      .where(eq(caseConfiguration.id, id as string));
    const save = await gql(
      emsReader.client,
      'mutation($id: ID!, $d: JSON!) { saveCaseConfiguration(id: $id, document: $d) { id } }',
      {
        id,
        d: { name: 'Taken Over' },
      },
    );
    expect(save.status).toBe(404);
    expect(save.body.errors[0].extensions).toEqual({ code: 'NOT_FOUND', statusCode: 404 });
    const removal = await gql(emsReader.client, 'mutation($id: ID!) { removeCaseConfiguration(id: $id) }', { id });
    expect(removal.status).toBe(404);
    const copy = await gql(
      emsReader.client,
      'mutation($id: ID!) { duplicateCaseConfiguration(id: $id, newCaseName: "Mine") { id } }',
      {
        id,
      },
    );
    expect(copy.status).toBe(404);
    const favourite = await gql(emsReader.client, 'mutation($id: ID!) { addFavorite(id: $id) { id } }', { id });
    expect(favourite.status).toBe(403);
    expect(favourite.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN', statusCode: 403 });
    const update = await gql(
      emsReader.client,
      'mutation($d: [CaseUpdateDecisionInput!]!) { updateEffectChains(decisions: $d) { id errorCode } }',
      {
        d: [
          { id, choice: 'YES' },
          { id: ids['Written Before Leaving'], choice: 'YES' },
        ],
      },
    );
    expect(update.body.data.updateEffectChains).toEqual([
      { id, errorCode: 'CASE_UPDATE_REFUSED' },
      { id: ids['Written Before Leaving'], errorCode: 'NOT_FOUND' },
    ]);
    // A mutation the role does not hold, as for anyone.
    const publish = await gql(emsReader.client, 'mutation($id: ID!) { publishTemplate(id: $id, published: false) { id } }', {
      id,
    });
    expect(publish.status).toBe(403);

    const after = await t.db
      .select()
      .from(caseConfiguration)
      .where(eq(caseConfiguration.id, id as string));
    expect(after).toEqual(before);
    expect(await t.db.select().from(caseFavorite).where(eq(caseFavorite.userId, emsReader.userId))).toEqual([]);
    expect(
      await t.db.select({ id: caseConfiguration.id }).from(caseConfiguration).where(eq(caseConfiguration.name, 'Mine')),
    ).toEqual([]);
  });

  it('refuses bad input with a 4xx JSON answer', async () => {
    const bad = await gql(emsReader.client, '{ caseConfigurations(first: 100000) { totalCount } }');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('refuses no token and an ended session with 401', async () => {
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/graphql',
      payload: { query: '{ caseConfigurations { totalCount } }' },
    });
    expect(none.statusCode).toBe(401);
    const ended = await endedReader.client.post('/api/graphql', { query: '{ caseConfigurations { totalCount } }' });
    expect(ended.statusCode).toBe(401);
    expect(ended.json().code).toBe('SESSION_ENDED');
  });

  it('reads nothing while the public content organisation is inactive', async () => {
    await t.db.update(group).set({ inactive: true }).where(eq(group.id, emsContent));
    try {
      expect(await listed(emsReader.client)).toEqual({ totalCount: 0, items: [] });
      expect(await readOne(emsReader.client, 'EMS Open')).toBeNull();
    } finally {
      await t.db.update(group).set({ inactive: false }).where(eq(group.id, emsContent));
    }
  });
});

describe('members of an organisation keep their access', () => {
  it('a student reads their organisation’s cases only, never the public content', async () => {
    expect(namesOf(await listed(riversideStudent.client))).toEqual([
      'Riverside Own',
      'Riverside Published',
      'Shared Into Content',
      'Written Before Leaving',
    ]);
    expect(await readOne(riversideStudent.client, 'EMS Open')).toBeNull();
  });

  it('an admin reads what is published to every admin, drafts of the content organisation never', async () => {
    const names = namesOf(await listed(riversideAdmin.client));
    expect(names).toContain('EMS Open');
    expect(names).toContain('Nursing Open');
    expect(names).not.toContain('EMS Draft');
    expect(await readOne(riversideAdmin.client, 'EMS Draft')).toBeNull();
  });
});
