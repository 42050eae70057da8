import { Writable } from 'node:stream';
import { count } from 'drizzle-orm';
import { buildSchema, type DocumentNode, type FragmentDefinitionNode, Kind, parse, specifiedRules, validate } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADD_FAVORITE_MUTATION,
  CASE_CONFIGURATION_QUERY,
  CASE_LIBRARY_QUERY,
  REMOVE_FAVORITE_MUTATION,
  UPDATE_EFFECT_CHAINS_MUTATION,
} from '@patientsim/domain/cases/case-library.schemas';
import { CASE_PAGE_SIZE } from '@patientsim/domain/cases/case-list';
import {
  PUBLISH_TEMPLATE_MUTATION,
  SET_TEMPLATE_APP_LAB_MUTATION,
  TEMPLATE_CASE_FIELDS,
  TEMPLATE_CASES_QUERY,
} from '@patientsim/domain/cases/template-case.schemas';
import type { Role } from '@patientsim/domain/roles/roles';
import { caseConfiguration } from '../../db/schema/cases.js';
import { group } from '../../db/schema/groups.js';
import { buildCase, buildOrganisation, type CaseInput } from '../../seed/builders.js';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/build-app.js';
import { insertGroup, signInNewMember } from '../../../test/fixtures.js';
import type { Client } from '../../../test/client.js';
import { CASE_SCHEMA } from './cases.graphql.js';
import { GRAPHQL_LIMITS, measureOperation, operationLimitsRule } from './graphql-limits.js';

type Session = Awaited<ReturnType<typeof signInNewMember>>;

/** What the server logs at warn and above, one parsed line each. */
const logged: Array<{ level: number; msg?: string }> = [];
const logger = {
  level: 'warn',
  stream: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(JSON.parse(chunk.toString()) as { level: number; msg?: string });
      done();
    },
  }),
};
/** pino's level of `error`. */
const ERROR_LEVEL = 50;

let t: TestApp;
let riverside: string;
const as = {} as Record<Role, Session>;
/** A case the instructor owns, with the large fields filled. */
let large: string;
/** Another case of the instructor's, saved with nested JSON. */
let nestedCase: string;
let template: string;

async function gql(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const response = await client.post('/api/graphql', { query, variables });
  return { status: response.statusCode, body: response.json() };
}

/** Posts a JSON text as it is (a value nested this deep cannot go through JSON.stringify). */
function postJson(client: Client, url: string, text: string) {
  return client.request({
    method: 'POST',
    url,
    payload: text,
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
  });
}

const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

async function insertCase(input: CaseInput) {
  const row = buildCase(input);
  await t.db.insert(caseConfiguration).values(row);
  return row.id;
}

async function countCases() {
  const [row] = await t.db.select({ n: count() }).from(caseConfiguration);
  return row?.n ?? 0;
}

beforeAll(async () => {
  t = await buildTestApp({ logger });
  const provider = await insertGroup(t.db, { name: 'Provider', dev: true });
  riverside = await insertGroup(t.db, { name: 'Riverside' });
  const templates = await insertGroup(t.db, { name: 'EMS Templates', templatesFor: 'EMS' });
  await t.db.insert(group).values(buildOrganisation({ name: 'EMS App Lab', appLabFor: 'EMS' }));
  as.SUPER_ADMIN = await signInNewMember(t, provider, { role: 'SUPER_ADMIN' });
  for (const role of ['ADMIN', 'USER', 'STUDENT'] as const) as[role] = await signInNewMember(t, riverside, { role });
  large = await insertCase({
    name: 'Polypharmacy',
    ownerId: as.USER.userId,
    ownerOrgId: riverside,
    tags: 'geriatric',
    needsEcUpdate: true,
    outdatedMedications: Array.from({ length: 1000 }, (_, i) => `Medication ${i} ${'x'.repeat(200)}`),
    outdatedEcNodes: ['node-1'],
  });
  nestedCase = await insertCase({ name: 'Nested', ownerId: as.USER.userId, ownerOrgId: riverside });
  for (let i = 0; i < 5; i += 1) await insertCase({ name: `Riverside ${i}`, ownerId: as.USER.userId, ownerOrgId: riverside });
  template = await insertCase({ name: 'Template', ownerId: as.SUPER_ADMIN.userId, ownerOrgId: templates, isTemplate: true });
});

describe('the cost of one request', () => {
  it('refuses 80 aliases of one root field, and allows a few', async () => {
    const aliases = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: caseConfigurations(first: 100) { items { id } }`).join(' ')} }`;
    const many = await gql(as.STUDENT.client, aliases(80));
    expect(many.status).toBe(400);
    expect(many.body.errors[0]).toMatchObject({
      message: 'caseConfigurations is asked for 80 times; a request may ask for one field at most 5 times.',
      extensions: { code: 'QUERY_TOO_COMPLEX', statusCode: 400 },
    });
    const few = await gql(as.STUDENT.client, aliases(5));
    expect(few.status, JSON.stringify(few.body.errors)).toBe(200);
    expect(Object.keys(few.body.data)).toHaveLength(5);
  });

  it('counts each field once per item of the lists it is in, and refuses a request over the bound', async () => {
    // Each list counts at the most it can answer: the Templates screen's query at the 1,000 cases a
    // template library answers at most.
    const twice = `{ ems: templateCases(productType: EMS) { ${TEMPLATE_CASE_FIELDS} }
      nursing: templateCases(productType: NURSING) { ${TEMPLATE_CASE_FIELDS} } }`;
    const refused = await gql(as.SUPER_ADMIN.client, twice);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({
      message:
        'The query costs 66,002 (each field counts once per item of the lists it is in); a request may cost at most 40,000.',
      extensions: { code: 'QUERY_TOO_COMPLEX', statusCode: 400 },
    });
    const once = await gql(as.SUPER_ADMIN.client, TEMPLATE_CASES_QUERY, { productType: 'EMS' });
    expect(once.status, JSON.stringify(once.body.errors)).toBe(200);

    // A page counts at its page size; a variable counts as the largest page, as the document is
    // checked once for every value it may take. Five pages of 100 are under the bound; the Templates
    // screen's query beside them is not.
    const fields = `id name tags origin createdAt errorsCount warningsCount published applab isTemplate isFavorite
      lastPlayed lastAccessed needsEcUpdate ignoreEcUpdate updateStatus author { id name } _startLocation { name { en } }`;
    const pages = (first: string) =>
      `query${first.startsWith('$') ? `(${first}: Int)` : ''} {
        ${Array.from({ length: 5 }, (_, i) => `p${i}: caseConfigurations(first: ${first}) { items { ${fields} } }`).join(' ')}
        templateCases(productType: EMS) { ${TEMPLATE_CASE_FIELDS} } }`;
    const byVariable = await gql(as.SUPER_ADMIN.client, pages('$first'), { first: 1 });
    expect(byVariable.status).toBe(400);
    expect(byVariable.body.errors[0].message).toBe(
      'The query costs 44,011 (each field counts once per item of the lists it is in); a request may cost at most 40,000.',
    );
    const small = await gql(as.SUPER_ADMIN.client, pages('1'));
    expect(small.status, JSON.stringify(small.body.errors)).toBe(200);
  });

  it('refuses more than one mutation in a request, before any of them runs', async () => {
    const before = await countCases();
    const duplicates = `mutation { ${Array.from(
      { length: 40 },
      (_, i) => `d${i}: duplicateCaseConfiguration(id: "${large}", newCaseName: "Copy ${i}") { id }`,
    ).join(' ')} }`;
    const duplicated = await gql(as.USER.client, duplicates);
    expect(duplicated.status).toBe(400);
    expect(duplicated.body.errors[0]).toMatchObject({
      message: 'The request carries 40 mutations; a request may carry only one.',
      extensions: { code: 'QUERY_TOO_COMPLEX', statusCode: 400 },
    });
    const removals = `mutation { ${Array.from({ length: 40 }, (_, i) => `r${i}: removeCaseConfiguration(id: "${large}")`).join(' ')} }`;
    const removed = await gql(as.USER.client, removals);
    expect(removed.status).toBe(400);
    expect(removed.body.errors[0].message).toBe('The request carries 40 mutations; a request may carry only one.');
    expect(await countCases()).toBe(before);
    // Through a fragment too.
    const spread = await gql(
      as.USER.client,
      `mutation { ...Two } fragment Two on Mutation { a: addFavorite(id: "${large}") { id } b: removeFavorite(id: "${large}") { id } }`,
    );
    expect(spread.status).toBe(400);
    expect(spread.body.errors[0].message).toBe('The request carries 2 mutations; a request may carry only one.');
    const named = await gql(as.USER.client, `mutation { __typename addFavorite(id: "${large}") { id } }`);
    expect(named.status, JSON.stringify(named.body.errors)).toBe(200);
  });

  it('answers the large fields of a case for one case at a time, never in a list', async () => {
    for (const [name, selection] of [
      ['searchableText', 'searchableText'],
      ['outdatedMedications', 'outdatedMedications'],
      ['outdatedEcNodes', 'outdatedEcNodes'],
      ['access', 'access { owner }'],
      ['shares', 'shares { to }'],
      ['timed_access', 'timed_access { users }'],
    ]) {
      const message = `${name} is answered for one case at a time (caseConfiguration), not in a list.`;
      const listed = await gql(as.STUDENT.client, `{ caseConfigurations { items { id ${selection} } } }`);
      expect(listed.status, name).toBe(400);
      expect(listed.body.errors[0]).toMatchObject({ message, extensions: { code: 'QUERY_TOO_COMPLEX', statusCode: 400 } });
      const templates = await gql(as.SUPER_ADMIN.client, `{ templateCases(productType: EMS) { id ${selection} } }`);
      expect(templates.status, name).toBe(400);
      expect(templates.body.errors[0].message).toBe(message);
    }
    // By alias and through fragments as well.
    const hidden = await gql(
      as.STUDENT.client,
      `{ caseConfigurations { items { ...Listed } } }
       fragment Listed on CaseConfiguration { id ... on CaseConfiguration { text: searchableText } }`,
    );
    expect(hidden.status).toBe(400);
    expect(hidden.body.errors[0].message).toBe(
      'searchableText is answered for one case at a time (caseConfiguration), not in a list.',
    );

    const one = await gql(
      as.USER.client,
      `query($id: ID!) { caseConfiguration(id: $id) { searchableText outdatedMedications outdatedEcNodes access { owner }
         shares { to } timed_access { users } } }`,
      { id: large },
    );
    expect(one.status, JSON.stringify(one.body.errors)).toBe(200);
    expect(one.body.data.caseConfiguration).toMatchObject({ outdatedEcNodes: ['node-1'], access: { owner: as.USER.userId } });
    expect(one.body.data.caseConfiguration.outdatedMedications).toHaveLength(1000);
  });
});

describe('nesting', () => {
  it('refuses a JSON variable nested deeper than 100 levels with 400, for any caller, and logs no error', async () => {
    logged.length = 0;
    const save = (document: string) =>
      `{"query":"mutation($id: ID!, $d: JSON!) { saveCaseConfiguration(id: $id, document: $d) { id name } }",` +
      `"variables":{"id":"${nestedCase}","d":${document}}}`;
    const deep = save(`{"name":"Nested","logic":${nestedArrays(200_000)}}`);
    // The student may not write the case; the instructor owns it: both are refused alike, before either is looked at.
    for (const session of [as.STUDENT, as.USER]) {
      const response = await postJson(session.client, '/api/graphql', deep);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        statusCode: 400,
        code: 'JSON_TOO_DEEP',
        message: 'The JSON is nested more than 100 levels deep.',
      });
    }
    expect(logged.filter((line) => line.level >= ERROR_LEVEL)).toEqual([]);
    // A document well inside the bound is saved.
    const nested = await postJson(as.USER.client, '/api/graphql', save(`{"name":"Nested","logic":${nestedArrays(90)}}`));
    expect(nested.statusCode, nested.body).toBe(200);
  });

  it('refuses a REST body nested deeper than 100 levels with 400, and logs no error', async () => {
    logged.length = 0;
    const announcement = (args: string) =>
      `{"title":"Drill","message":"Tonight","targets":[{"principalType":"GROUP","principalId":"${riverside}"}],` +
      `"actions":[{"label":"Go","type":"EVENT_HUB","metadata":{"event":"drill","args":{"steps":${args}}}}]}`;
    const response = await postJson(as.SUPER_ADMIN.client, '/api/users/notifications', announcement(nestedArrays(200_000)));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'JSON_TOO_DEEP' });
    expect(logged.filter((line) => line.level >= ERROR_LEVEL)).toEqual([]);
    // Bodies within the bound are read by Fastify's parser as before: prototype poisoning is refused.
    const poisoned = await postJson(as.SUPER_ADMIN.client, '/api/users/notifications', '{"__proto__":{"isAdmin":true}}');
    expect(poisoned.statusCode).toBe(400);
  });

  it('refuses deep selections with 400 and says how deep a query may go', async () => {
    const deepest = await gql(
      as.STUDENT.client,
      '{ caseConfigurations { items { dispatch { chiefComplaint { caption { en } } } } } }',
    );
    expect(deepest.status).toBe(200);
    const nine = await gql(
      as.STUDENT.client,
      '{ __schema { types { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } } }',
    );
    expect(nine.status).toBe(400);
    expect(nine.body.errors[0]).toMatchObject({
      message: 'The query selects fields 9 levels deep; a query may go at most 7 levels deep.',
      extensions: { code: 'QUERY_TOO_COMPLEX', statusCode: 400 },
    });
    logged.length = 0;
    const text = `{ caseConfigurations { items { ${'a{'.repeat(5000)}id${'}'.repeat(5000)} } } }`;
    const nested = await gql(as.STUDENT.client, text);
    expect(nested.status).toBe(400);
    expect(nested.body.errors[0]).toMatchObject({
      message: 'The query is nested more than 100 levels deep.',
      extensions: { code: 'QUERY_TOO_COMPLEX', statusCode: 400 },
    });
    expect(logged.filter((line) => line.level >= ERROR_LEVEL)).toEqual([]);
  });
});

/** Every GraphQL document the web app sends. */
const WEB_DOCUMENTS = {
  CASE_LIBRARY_QUERY,
  CASE_CONFIGURATION_QUERY,
  ADD_FAVORITE_MUTATION,
  REMOVE_FAVORITE_MUTATION,
  UPDATE_EFFECT_CHAINS_MUTATION,
  TEMPLATE_CASES_QUERY,
  PUBLISH_TEMPLATE_MUTATION,
  SET_TEMPLATE_APP_LAB_MUTATION,
};

describe('the cost function', () => {
  const schema = buildSchema(CASE_SCHEMA);
  const measure = (source: string) => {
    const document: DocumentNode = parse(source);
    const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
    if (!operation) throw new Error('no operation');
    return measureOperation(schema, operation, (name) =>
      document.definitions.find(
        (definition): definition is FragmentDefinitionNode =>
          definition.kind === Kind.FRAGMENT_DEFINITION && definition.name.value === name,
      ),
    );
  };

  it("holds the web app's own documents within every bound, under the same validation as the endpoint", () => {
    for (const [name, source] of Object.entries(WEB_DOCUMENTS)) {
      expect(validate(schema, parse(source), [...specifiedRules, operationLimitsRule()]), name).toEqual([]);
      expect(measure(source).cost, name).toBeLessThanOrEqual(GRAPHQL_LIMITS.maxCost);
    }
  });

  it('stops walking a document whose fragments expand past the bound, cycles included', () => {
    const chain = Array.from({ length: 30 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ');
    // 2^30 expansions of a fragment, without a field or with many.
    expect(measure(`{ ...F0 } ${chain} fragment F30 on Query { ...F0 }`).cutBy).toBe('fragments');
    expect(measure(`{ ...F0 } ${chain} fragment F30 on Query { ${'__typename '.repeat(300)}}`).cutBy).toBe('fields');
  });

  it('counts a page at its size, a variable at the largest page, and a list without a page at the most it answers', () => {
    expect(measure('{ caseConfigurations(first: 10) { items { id name } totalCount } }').cost).toBe(1 + 1 + 10 * 2 + 1);
    expect(measure('{ caseConfigurations { items { id } } }').cost).toBe(2 + CASE_PAGE_SIZE);
    expect(measure('query($n: Int) { caseConfigurations(first: $n) { items { id name } } }').cost).toBe(2 + 100 * 2);
    expect(measure('{ caseConfigurations(first: 5000) { items { id } } }').cost).toBe(2 + 100);
    expect(measure('{ templateCases(productType: EMS) { id } }').cost).toBe(1 + 1000);
    expect(measure('mutation { updateEffectChains(decisions: []) { id error } }').cost).toBe(1 + 100 * 2);
    // The lists inside one case count once.
    expect(measure('{ caseConfiguration(id: "x") { id access { read { groups } } } }').cost).toBe(5);
  });
});

describe("the web app's own requests", () => {
  it('answers every query and mutation of the scenario library to a student, an instructor, an admin and a super admin', async () => {
    const library = { sortBy: null, filters: null, search: null, first: CASE_PAGE_SIZE, after: null };
    for (const role of ['STUDENT', 'USER', 'ADMIN', 'SUPER_ADMIN'] as const) {
      const { client } = as[role];
      const page = await gql(client, CASE_LIBRARY_QUERY, library);
      expect(page.status, `${role}: ${JSON.stringify(page.body.errors)}`).toBe(200);
      const sorted = await gql(client, CASE_LIBRARY_QUERY, {
        ...library,
        sortBy: { field: 'NAME', direction: 'ASC' },
        filters: { favorited: true },
        search: 'river',
      });
      expect(sorted.status, role).toBe(200);
      const one = await gql(client, CASE_CONFIGURATION_QUERY, { id: large });
      expect(one.status, role).toBe(200);
      if (role === 'SUPER_ADMIN') continue;
      expect(one.body.data.caseConfiguration.id).toBe(large);
      for (const mutation of [ADD_FAVORITE_MUTATION, REMOVE_FAVORITE_MUTATION]) {
        const favorite = await gql(client, mutation, { id: large });
        expect(favorite.status, `${role}: ${JSON.stringify(favorite.body.errors)}`).toBe(200);
      }
      const update = await gql(client, UPDATE_EFFECT_CHAINS_MUTATION, { decisions: [{ id: large, choice: 'NO' }] });
      expect(update.status, `${role}: ${JSON.stringify(update.body.errors)}`).toBe(200);
    }
  });

  it('answers every query and mutation of the Templates screen to a super admin', async () => {
    const { client } = as.SUPER_ADMIN;
    for (const productType of ['EMS', 'NURSING', 'MILITARY']) {
      const listed = await gql(client, TEMPLATE_CASES_QUERY, { productType });
      expect(listed.status, JSON.stringify(listed.body.errors)).toBe(200);
    }
    const published = await gql(client, PUBLISH_TEMPLATE_MUTATION, { id: template, published: true });
    expect(published.status, JSON.stringify(published.body.errors)).toBe(200);
    const appLab = await gql(client, SET_TEMPLATE_APP_LAB_MUTATION, { id: template, applab: true });
    expect(appLab.status, JSON.stringify(appLab.body.errors)).toBe(200);
  });
});

describe('introspection and the API documentation', () => {
  const PRODUCTION = { NODE_ENV: 'production', AUTH_SECRET: 'p'.repeat(32), SMTP_URL: 'smtp://mail.example:587' };

  async function productionApp(env: Record<string, string>) {
    const app = await buildTestApp({ env: { ...PRODUCTION, ...env }, loadShedding: { enabled: false } });
    const organisation = await insertGroup(app.db, { name: 'Riverside' });
    const { client } = await signInNewMember(app, organisation, { role: 'USER' });
    return { app, client };
  }

  it('are off in production', async () => {
    const { app, client } = await productionApp({});
    for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "CaseConfiguration") { name } }']) {
      const answer = await gql(client, query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors[0].message).toMatch(/^GraphQL introspection has been disabled/);
    }
    expect((await gql(client, '{ __typename }')).status).toBe(200);
    expect((await app.app.inject({ url: '/api/docs' })).statusCode).toBe(404);
    expect((await app.app.inject({ url: '/api/docs/json' })).statusCode).toBe(404);
  });

  it('are on in production when configured on', async () => {
    const { app, client } = await productionApp({ API_INTROSPECTION: 'on' });
    const answer = await gql(client, '{ __schema { queryType { name } } }');
    expect(answer.status).toBe(200);
    expect(answer.body.data.__schema.queryType.name).toBe('Query');
    const docs = await app.app.inject({ url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toContain('/api/cases/{id}');
  });
});
