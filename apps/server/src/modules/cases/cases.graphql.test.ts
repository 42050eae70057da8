import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CASE_ACCESS_CODE_HEADER } from '@patientsim/domain/cases/case.schemas';
import { ROLES, type Role } from '@patientsim/domain/roles/roles';
import { auditEvent } from '../../db/schema/audit.js';
import { user } from '../../db/schema/auth.js';
import { caseConfiguration, caseFavorite, casePlay, caseShare } from '../../db/schema/cases.js';
import { buildCase, buildCasePlay, buildCaseShare, buildOrganisation, type CaseInput } from '../../seed/builders.js';
import { group } from '../../db/schema/groups.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { findCaseResultPage } from './case-list.repository.js';
import { sortPlan } from './case-sort.js';
import { ALL_RESULT_FIELDS, LIST_DOCUMENT_KEYS, type ResultFields } from './cases.repository.js';
import { addMember, insertGroup, insertUser, signInNewMember, viewingAs } from '../../../test/fixtures.js';
import { signInAs } from '../../../test/sign-in-client.js';
import type { Client } from '../../../test/client.js';

type Session = Awaited<ReturnType<typeof signInNewMember>>;
const ACCESS_CODE = 'riverside-access-code-0123456789';

let t: TestApp;
let riverside: string;
let northgate: string;
let dormant: string;
let emsTemplates: string;
let emsAppLab: string;
let cohort: string;
const as = {} as Record<Role, Session>;
let outsider: Session;
let dormantMember: Session;
let appLabUser: Session;
let cohortStudent: Session;
let noOrg: Session;
let signedOut: Session;
/** Riverside's cases by name. */
const ids: Record<string, string> = {};

const LIST = /* GraphQL */ `
  query List($sortBy: CaseSortInput, $filters: CaseFiltersInput, $search: String, $first: Int, $after: String, $withAccess: CaseAccessKind) {
    caseConfigurations(sortBy: $sortBy, filters: $filters, search: $search, first: $first, after: $after, withAccess: $withAccess) {
      items { id name isFavorite lastAccessed lastPlayed needsEcUpdate errorsCount published applab isTemplate updateStatus ignoreEcUpdate author { id name } createdAt }
      nextCursor
      totalCount
    }
  }
`;

const LIST_COUNT = /* GraphQL */ `
  query Count($filters: CaseFiltersInput, $search: String, $after: String) {
    caseConfigurations(filters: $filters, search: $search, after: $after) { nextCursor totalCount totalCountCapped }
  }
`;

async function gql(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const response = await client.post('/api/graphql', { query, variables });
  return { status: response.statusCode, body: response.json() };
}

async function list(client: Client, variables: Record<string, unknown> = {}) {
  const { status, body } = await gql(client, LIST, variables);
  expect(status, JSON.stringify(body.errors)).toBe(200);
  return body.data.caseConfigurations as { items: Array<Record<string, unknown>>; nextCursor: string | null; totalCount: number };
}

const names = (page: { items: Array<Record<string, unknown>> }) => page.items.map((item) => item.name as string);

async function insertCase(input: CaseInput) {
  const row = buildCase(input);
  await t.db.insert(caseConfiguration).values(row);
  if (input.name) ids[input.name] = row.id;
  return row;
}

beforeAll(async () => {
  t = await buildTestApp({ env: { CASE_ACCESS_CODE: ACCESS_CODE } });
  const provider = await insertGroup(t.db, { name: 'Provider', dev: true });
  riverside = await insertGroup(t.db, { name: 'Riverside' });
  northgate = await insertGroup(t.db, { name: 'Northgate', productType: 'NURSING' });
  dormant = await insertGroup(t.db, { name: 'Dormant', inactive: true });
  emsTemplates = await insertGroup(t.db, { name: 'EMS Templates', templatesFor: 'EMS' });
  const appLab = buildOrganisation({ name: 'EMS App Lab', appLabFor: 'EMS' });
  await t.db.insert(group).values(appLab);
  emsAppLab = appLab.id;
  cohort = await insertGroup(t.db, { name: 'Ri::Cohort', parentId: riverside });
  for (const role of ROLES) as[role] = await signInNewMember(t, role === 'SUPER_ADMIN' ? provider : riverside, { role });
  outsider = await signInNewMember(t, northgate, { role: 'ADMIN' });
  dormantMember = await signInNewMember(t, dormant, { role: 'ADMIN' });
  appLabUser = await signInNewMember(t, emsAppLab, { role: 'USER' });
  const student2 = await insertUser(t.db, { role: 'STUDENT' });
  await addMember(t.db, riverside, student2.id, 'STUDENT');
  await addMember(t.db, cohort, student2.id, 'STUDENT');
  cohortStudent = { ...(await signInAs(t, student2.email, student2.password)), email: student2.email };
  const lonely = await insertUser(t.db, { role: 'USER' });
  noOrg = { ...(await signInAs(t, lonely.email, lonely.password)), email: lonely.email };
  signedOut = { ...(await signInAs(t, as.USER.email, 'Test-Pass-2026')), email: as.USER.email };
  expect((await signedOut.client.post('/api/users/auth/sign-out')).statusCode).toBe(200);

  const instructor = as.USER.userId;
  const day = 24 * 3600 * 1000;
  const base = Date.UTC(2026, 0, 1);
  const avatar = (name: string) => ({ id: name, key: name.toUpperCase(), name, pictureUrl: `/media/${name}` });
  const place = (name: string) => ({ name, pictureUrl: `/media/${name}` });
  await insertCase({
    name: 'Chest Pain',
    ownerId: instructor,
    ownerOrgId: riverside,
    tags: 'cardiac adult',
    avatar: avatar('Walter'),
    startLocation: place('Gym'),
    endLocation: place('Ambulance'),
    createdAt: new Date(base + day),
  });
  await insertCase({
    name: 'Asthma',
    ownerId: as.ADMIN.userId,
    ownerOrgId: riverside,
    tags: 'respiratory pediatric',
    avatar: avatar('Ava'),
    startLocation: place('School'),
    endLocation: place('Hospital'),
    createdAt: new Date(base + 2 * day),
  });
  await insertCase({
    name: 'Anaphylaxis',
    ownerId: instructor,
    ownerOrgId: riverside,
    needsEcUpdate: true,
    outdatedMedications: ['Epinephrine'],
    avatar: avatar('Zoe'),
    startLocation: place('Picnic'),
    createdAt: new Date(base + 3 * day),
  });
  await insertCase({
    name: 'Burns',
    ownerId: instructor,
    ownerOrgId: riverside,
    errorsCount: 2,
    createdAt: new Date(base + 4 * day),
  });
  await insertCase({
    name: 'Crush Injury',
    ownerId: instructor,
    ownerOrgId: riverside,
    needsEcUpdate: true,
    errorsCount: 1,
    createdAt: new Date(base + 5 * day),
  });
  await insertCase({
    name: 'Stroke',
    ownerId: instructor,
    ownerOrgId: riverside,
    needsEcUpdate: true,
    createdAt: new Date(base + 6 * day),
  });
  const shared = await insertCase({
    name: 'Delivery',
    ownerId: instructor,
    ownerOrgId: riverside,
    shares: [{ shareType: 'group', from: instructor, to: northgate }],
    createdAt: new Date(base + 7 * day),
  });
  await t.db.insert(caseShare).values(buildCaseShare({ caseId: shared.id, shareType: 'group', from: instructor, to: northgate }));
  await insertCase({
    name: 'Cohort Assignment',
    ownerId: instructor,
    ownerOrgId: null,
    timedAccess: { users: [], groups: [cohort] },
    createdAt: new Date(base + 8 * day),
  });
  await insertCase({
    name: 'Northgate Own',
    ownerId: outsider.userId,
    ownerOrgId: northgate,
    createdAt: new Date(base + 9 * day),
  });
  await insertCase({
    name: 'Dormant Own',
    ownerId: dormantMember.userId,
    ownerOrgId: dormant,
    createdAt: new Date(base + 10 * day),
  });
  await insertCase({
    name: 'Template Published',
    ownerId: as.SUPER_ADMIN.userId,
    ownerOrgId: emsTemplates,
    isTemplate: true,
    published: true,
    appLabOrgId: emsAppLab,
    createdAt: new Date(base + 11 * day),
  });
  await insertCase({
    name: 'Template Draft',
    ownerId: as.SUPER_ADMIN.userId,
    ownerOrgId: emsTemplates,
    isTemplate: true,
    createdAt: new Date(base + 12 * day),
  });
  // Pseudo-group grants on cases owned by nobody in Riverside.
  for (const [name, groups] of Object.entries({
    'For All Users': ['ALL_USERS'],
    'For All Students': ['ALL_STUDENTS'],
    'For Key Owners': ['ALL_KEYOWNERS'],
    'For Riverside Admins': [`${riverside}_ADMINS`],
    'For Riverside Instructors': [`${riverside}_INSTRUCTORS`],
  })) {
    await insertCase({ name, ownerId: null, ownerOrgId: null, createdAt: new Date(base + 20 * day) });
    const id = ids[name] as string;
    const [row] = await t.db.select().from(caseConfiguration).where(eq(caseConfiguration.id, id));
    if (!row) throw new Error('missing row');
    const access = { ...row.access, read: { ...row.access.read, groups } };
    await t.db.update(caseConfiguration).set({ access, readers: groups }).where(eq(caseConfiguration.id, id));
  }
  await t.db
    .insert(casePlay)
    .values([
      buildCasePlay(
        { caseId: ids.Asthma as string, userId: instructor },
        { plays: 2, lastPlayed: new Date(base + 40 * day), lastAccessed: new Date(base + 41 * day) },
      ),
      buildCasePlay({ caseId: ids.Burns as string, userId: instructor }, { lastAccessed: new Date(base + 30 * day) }),
    ]);
  t.app.cache.clear();
});

const RIVERSIDE_LIBRARY = ['Chest Pain', 'Asthma', 'Anaphylaxis', 'Burns', 'Crush Injury', 'Stroke', 'Delivery'];

describe('caseConfigurations: who sees what', () => {
  it('an instructor sees the organisation library, published templates and the pseudo groups of their role', async () => {
    const page = await list(as.USER.client, { first: 100 });
    expect(names(page).sort()).toEqual(
      // The assignment has no organisation: its author reaches it as its owner.
      [...RIVERSIDE_LIBRARY, 'Cohort Assignment', 'Template Published', 'For All Users', 'For Riverside Instructors'].sort(),
    );
    expect(page.totalCount).toBe(page.items.length);
  });

  it('an admin sees the admin pseudo groups, not the instructors ones', async () => {
    const page = await list(as.ADMIN.client, { first: 100 });
    expect(names(page)).toContain('For Riverside Admins');
    expect(names(page)).toContain('Template Published');
    expect(names(page)).not.toContain('For Riverside Instructors');
  });

  it('a student sees the library without template information, and ALL_STUDENTS cases', async () => {
    const page = await list(as.STUDENT.client, { first: 100 });
    expect(names(page).sort()).toEqual([...RIVERSIDE_LIBRARY, 'For All Users', 'For All Students'].sort());
    expect(page.items.every((item) => item.published === false && item.applab === false && item.isTemplate === false)).toBe(true);
  });

  it('a member of a sub-group sees the cases assigned to it (timed access)', async () => {
    const page = await list(cohortStudent.client, { first: 100, filters: { assignedToMe: true } });
    expect(names(page)).toEqual(['Cohort Assignment']);
    const other = await list(as.STUDENT.client, { first: 100, filters: { assignedToMe: true } });
    expect(names(other)).toEqual([]);
  });

  it('the key owner pseudo group reaches key owners only', async () => {
    const owner = await insertUser(t.db, { role: 'ADMIN' });
    const owned = await insertGroup(t.db, { name: 'Owned', ownerId: owner.id });
    await addMember(t.db, owned, owner.id, 'ADMIN');
    const session = await signInAs(t, owner.email, owner.password);
    expect(names(await list(session.client, { first: 100 }))).toContain('For Key Owners');
    expect(names(await list(as.ADMIN.client, { first: 100 }))).not.toContain('For Key Owners');

    // The provider hands the organisation to another admin: each list follows at once, though both
    // were just read (the lookup of key owners is remembered until a write to groups).
    const successor = await insertUser(t.db, { role: 'ADMIN' });
    await addMember(t.db, owned, successor.id, 'ADMIN');
    const next = await signInAs(t, successor.email, successor.password);
    expect(names(await list(next.client, { first: 100 }))).not.toContain('For Key Owners');
    const handover = await as.SUPER_ADMIN.client.request({
      method: 'PATCH',
      url: `/api/users/extension/groups/${owned}`,
      payload: { ownerId: successor.id },
    });
    expect(handover.statusCode).toBe(200);
    expect(names(await list(session.client, { first: 100 }))).not.toContain('For Key Owners');
    expect(names(await list(next.client, { first: 100 }))).toContain('For Key Owners');
  });

  it('another organisation sees its own cases and what was shared with it, never Riverside library', async () => {
    const page = await list(outsider.client, { first: 100 });
    expect(names(page).sort()).toEqual(['Delivery', 'For All Users', 'Northgate Own', 'Template Published'].sort());
    const shared = await list(outsider.client, { filters: { sharedWithMe: true } });
    expect(names(shared)).toEqual(['Delivery']);
  });

  it('a member of two organisations sees the library of the one signed in with, never a mix', async () => {
    const both = await insertUser(t.db, { role: 'USER' });
    await addMember(t.db, riverside, both.id, 'USER');
    await addMember(t.db, northgate, both.id, 'USER');
    await t.db.update(user).set({ activeOrgId: northgate }).where(eq(user.id, both.id));
    const session = await signInAs(t, both.email, both.password);
    const inNorthgate = names(await list(session.client, { first: 100 }));
    expect(inNorthgate).toContain('Northgate Own');
    expect(inNorthgate).not.toContain('Chest Pain');
    const changed = await session.client.post('/api/users/auth/changeOrg', { orgId: riverside });
    expect(changed.statusCode).toBe(200);
    t.app.cache.clear();
    const inRiverside = names(await list(session.client, { first: 100 }));
    expect(inRiverside).toContain('Chest Pain');
    expect(inRiverside).not.toContain('Northgate Own');
  });

  it('an App Lab member sees the App Lab templates', async () => {
    expect(names(await list(appLabUser.client, { first: 100 }))).toContain('Template Published');
  });

  it('a member of only an inactive organisation sees nothing, not even their own cases', async () => {
    const page = await list(dormantMember.client, { first: 100 });
    expect(page).toEqual({ items: [], nextCursor: null, totalCount: 0 });
  });

  it('another organisation cannot read, favourite or change a Riverside case (404)', async () => {
    const id = ids['Chest Pain'];
    const read = await gql(outsider.client, 'query($id: ID!) { caseConfiguration(id: $id) { id } }', { id });
    expect(read.body.data.caseConfiguration).toBeNull();
    const favorite = await gql(outsider.client, 'mutation($id: ID!) { addFavorite(id: $id) { id } }', { id });
    expect(favorite.status).toBe(404);
    expect(favorite.body.errors[0].extensions).toEqual({ code: 'NOT_FOUND', statusCode: 404 });
    const removal = await gql(outsider.client, 'mutation($id: ID!) { removeCaseConfiguration(id: $id) }', { id });
    expect(removal.status).toBe(404);
  });

  it('reads one case only for a caller who may read it: null for a case of their organisation kept from their role', async () => {
    // The scenario library's case links (`?caseId=`) read a case past the loaded pages this way.
    const query = 'query($id: ID!) { caseConfiguration(id: $id) { id name } }';
    const id = ids['For Riverside Instructors'];
    const instructor = await gql(as.USER.client, query, { id });
    expect(instructor.body.data.caseConfiguration).toEqual({ id, name: 'For Riverside Instructors' });
    const admin = await gql(as.ADMIN.client, query, { id });
    expect(admin.body.errors).toBeUndefined();
    expect(admin.body.data.caseConfiguration).toBeNull();
    const unknown = await gql(as.USER.client, query, { id: 'no-such-case' });
    expect(unknown.body.data.caseConfiguration).toBeNull();
  });

  it('refuses no token, a bad token and an ended session with 401 JSON', async () => {
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/graphql',
      payload: { query: '{ caseConfigurations { totalCount } }' },
    });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/graphql',
      headers: { authorization: 'Bearer not.a.token' },
      payload: { query: '{ caseConfigurations { totalCount } }' },
    });
    expect(bad.statusCode).toBe(401);
    const ended = await signedOut.client.post('/api/graphql', { query: '{ caseConfigurations { totalCount } }' });
    expect(ended.statusCode).toBe(401);
    expect(ended.json().code).toBe('SESSION_ENDED');
  });
});

describe('caseConfigurations: order, search, filters and pages', () => {
  it('orders by needsEcUpdate, errorsCount and lastAccessed by default (decision 11)', async () => {
    const order = names(await list(as.USER.client, { first: 100 }));
    // Pending updates first (with errors before none), then errors, then the last opened.
    expect(order[0]).toBe('Crush Injury');
    expect(order.slice(1, 3).sort()).toEqual(['Anaphylaxis', 'Stroke']);
    expect(order.slice(3, 5)).toEqual(['Burns', 'Asthma']);
  });

  it('sorts by each column, ascending and descending', async () => {
    const byName = (direction: string) => list(as.USER.client, { first: 100, sortBy: { field: 'NAME', direction } });
    const asc = names(await byName('ASC'));
    expect(asc).toEqual([...asc].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(names(await byName('DESC'))).toEqual([...asc].reverse());
    const patients = await list(as.USER.client, {
      filters: { madeByMe: true },
      sortBy: { field: 'AVATAR_NAME', direction: 'ASC' },
    });
    // Cases without a patient sort first (as an empty name).
    expect(names(patients).slice(-2)).toEqual(['Chest Pain', 'Anaphylaxis']);
    const created = await list(as.USER.client, {
      filters: { madeByMe: true },
      sortBy: { field: 'CREATED_AT', direction: 'DESC' },
    });
    expect(names(created)[0]).toBe('Cohort Assignment');
    const played = await list(as.USER.client, { sortBy: { field: 'LAST_PLAYED', direction: 'DESC' } });
    expect(names(played)[0]).toBe('Asthma');
    const opened = await list(as.USER.client, { sortBy: { field: 'LAST_ACCESSED', direction: 'DESC' } });
    expect(names(opened).slice(0, 2)).toEqual(['Asthma', 'Burns']);
    for (const field of ['START_LOCATION', 'END_LOCATION', 'PUBLISHED', 'APPLAB']) {
      const page = await list(as.USER.client, { first: 100, sortBy: { field, direction: 'DESC' } });
      expect(page.items.length).toBe(page.totalCount);
    }
    const published = await list(as.USER.client, { first: 1, sortBy: { field: 'PUBLISHED', direction: 'DESC' } });
    expect(names(published)).toEqual(['Template Published']);
  });

  it('searches name, tags and the searchable text, case-insensitively', async () => {
    expect(names(await list(as.USER.client, { search: 'CARDIAC' }))).toEqual(['Chest Pain']);
    expect(names(await list(as.USER.client, { search: 'asth' }))).toEqual(['Asthma']);
    expect(names(await list(as.USER.client, { search: 'picnic' }))).toEqual(['Anaphylaxis']);
    expect(names(await list(as.USER.client, { search: '100%_' }))).toEqual([]);
  });

  it('lists the cases the caller may write, run or share with withAccess', async () => {
    expect(names(await list(as.ADMIN.client, { first: 100, withAccess: 'WRITE' }))).toEqual(['Asthma']);
    expect(names(await list(as.STUDENT.client, { first: 100, withAccess: 'RUN' })).sort()).toEqual([...RIVERSIDE_LIBRARY].sort());
    expect(names(await list(as.STUDENT.client, { first: 100, withAccess: 'SHARE' }))).toEqual([]);
    const run = await list(as.USER.client, { first: 100, withAccess: 'RUN' });
    expect(names(run)).toContain('Template Published');
    expect(names(run)).not.toContain('For All Users');
  });

  it('filters made by me, favourited and template', async () => {
    const mine = await list(as.ADMIN.client, { filters: { madeByMe: true } });
    expect(names(mine)).toEqual(['Asthma']);
    const templates = await list(as.USER.client, { filters: { template: true } });
    expect(names(templates)).toEqual(['Template Published']);
  });

  it('pages concatenate to the whole list without duplicates, in every order', async () => {
    for (const sortBy of [
      null,
      { field: 'NAME', direction: 'ASC' },
      { field: 'LAST_ACCESSED', direction: 'DESC' },
      { field: 'PUBLISHED', direction: 'ASC' },
    ]) {
      const whole = names(await list(as.USER.client, { first: 100, sortBy }));
      const seen: string[] = [];
      let after: string | null = null;
      do {
        const page = await list(as.USER.client, { first: 2, sortBy, after });
        seen.push(...names(page));
        after = page.nextCursor;
      } while (after);
      expect(seen).toEqual(whole);
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it('pages through played, opened and untouched cases, with and without attention, in the order of each play key', async () => {
    // A library of its own (made by the reader, so that Made by me leaves nothing else), ordered
    // here independently of the database: cases that need attention or not, played and opened,
    // only opened or untouched, with tied times.
    const eastfield = await insertGroup(t.db, { name: 'Eastfield' });
    const reader = await signInNewMember(t, eastfield, { role: 'USER' });
    const epoch = 0;
    const at = (minutes: number) => Date.UTC(2026, 2, 1) + minutes * 60_000;
    type Row = {
      id: string;
      needsEcUpdate: boolean;
      errorsCount: number;
      lastAccessed: number | null;
      lastPlayed: number | null;
    };
    const library: Row[] = [];
    for (let i = 0; i < 30; i++) {
      const row = await insertCase({
        name: `Eastfield ${i}`,
        ownerId: reader.userId,
        ownerOrgId: eastfield,
        needsEcUpdate: i % 7 === 0,
        errorsCount: i % 5 === 0 ? (i % 3) + 1 : 0,
      });
      // Every third case untouched; of the rest, every other one only opened; times tie in pairs.
      const lastAccessed = i % 3 === 0 ? null : at(Math.floor(i / 2));
      const lastPlayed = lastAccessed !== null && i % 2 === 0 ? at(100 - Math.floor(i / 4)) : null;
      if (lastAccessed !== null) {
        await t.db
          .insert(casePlay)
          .values(
            buildCasePlay(
              { caseId: row.id, userId: reader.userId },
              { lastAccessed: new Date(lastAccessed), lastPlayed: lastPlayed === null ? null : new Date(lastPlayed) },
            ),
          );
      }
      library.push({
        id: row.id,
        needsEcUpdate: i % 7 === 0,
        errorsCount: i % 5 === 0 ? (i % 3) + 1 : 0,
        lastAccessed,
        lastPlayed,
      });
    }
    t.app.cache.clear();
    const compare = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);
    const orders: Array<[Record<string, string> | null, (a: Row, b: Row) => number]> = [
      [
        null,
        (a, b) =>
          -compare(Number(a.needsEcUpdate), Number(b.needsEcUpdate)) ||
          -compare(a.errorsCount, b.errorsCount) ||
          -compare(a.lastAccessed ?? epoch, b.lastAccessed ?? epoch) ||
          -compare(a.id, b.id),
      ],
      [
        { field: 'LAST_ACCESSED', direction: 'DESC' },
        (a, b) => -compare(a.lastAccessed ?? epoch, b.lastAccessed ?? epoch) || -compare(a.id, b.id),
      ],
      [
        { field: 'LAST_ACCESSED', direction: 'ASC' },
        (a, b) => compare(a.lastAccessed ?? epoch, b.lastAccessed ?? epoch) || compare(a.id, b.id),
      ],
      [
        { field: 'LAST_PLAYED', direction: 'DESC' },
        (a, b) => -compare(a.lastPlayed ?? epoch, b.lastPlayed ?? epoch) || -compare(a.id, b.id),
      ],
      [
        { field: 'LAST_PLAYED', direction: 'ASC' },
        (a, b) => compare(a.lastPlayed ?? epoch, b.lastPlayed ?? epoch) || compare(a.id, b.id),
      ],
    ];
    for (const [sortBy, order] of orders) {
      const expected = [...library].sort(order).map((row) => row.id);
      for (const first of [1, 4, 7, 50]) {
        const seen: string[] = [];
        let after: string | null = null;
        do {
          const page = await list(reader.client, { first, sortBy, after, filters: { madeByMe: true } });
          seen.push(...page.items.map((item) => item.id as string));
          after = page.nextCursor;
        } while (after);
        expect(seen, `${JSON.stringify(sortBy)} by ${first}`).toEqual(expected);
      }
    }
    // Each case carries the reader's own play times.
    const page = await list(reader.client, { first: 50, filters: { madeByMe: true } });
    for (const item of page.items) {
      const row = library.find((entry) => entry.id === item.id);
      const iso = (time: number | null | undefined) => (time == null ? null : new Date(time).toISOString());
      expect([item.lastAccessed, item.lastPlayed]).toEqual([iso(row?.lastAccessed), iso(row?.lastPlayed)]);
    }
  });

  it('moves a played case to the top of the default order when it comes to need attention, and back when it no longer does', async () => {
    const southfield = await insertGroup(t.db, { name: 'Southfield' });
    const reader = await signInNewMember(t, southfield, { role: 'USER' });
    const at = (minutes: number) => new Date(Date.UTC(2026, 3, 1) + minutes * 60_000);
    const cases: Record<string, string> = {};
    for (const name of ['Recent', 'Earlier', 'Later Trouble', 'Untouched'])
      cases[name] = (await insertCase({ name, ownerId: reader.userId, ownerOrgId: southfield })).id;
    const openedAt = { Recent: 30, Earlier: 20, 'Later Trouble': 10 };
    await t.db
      .insert(casePlay)
      .values(
        Object.entries(openedAt).map(([name, minutes]) =>
          buildCasePlay({ caseId: cases[name] as string, userId: reader.userId }, { lastAccessed: at(minutes) }),
        ),
      );
    t.app.cache.clear();
    const order = async () => names(await list(reader.client, { first: 2, filters: { madeByMe: true } }));
    const wholeOrder = async () => names(await list(reader.client, { first: 50, filters: { madeByMe: true } }));
    expect(await wholeOrder()).toEqual(['Recent', 'Earlier', 'Later Trouble', 'Untouched']);

    // Errors counted by a save of the document: first, though opened last of the three.
    const save = (errorsCount: number) =>
      gql(reader.client, 'mutation($id: ID!, $d: JSON!) { saveCaseConfiguration(id: $id, document: $d) { errorsCount } }', {
        id: cases['Later Trouble'],
        d: { name: 'Later Trouble', errorsCount },
      });
    expect((await save(2)).body.data.saveCaseConfiguration).toEqual({ errorsCount: 2 });
    expect(await order()).toEqual(['Later Trouble', 'Recent']);
    expect(await wholeOrder()).toEqual(['Later Trouble', 'Recent', 'Earlier', 'Untouched']);

    // Fixed: back in the order of its opening.
    expect((await save(0)).body.data.saveCaseConfiguration).toEqual({ errorsCount: 0 });
    expect(await order()).toEqual(['Recent', 'Earlier']);

    // An effect-chain update comes to the case (written by the platform), and the reader takes it.
    await t.db
      .update(caseConfiguration)
      .set({ needsEcUpdate: true })
      .where(eq(caseConfiguration.id, cases.Earlier as string));
    expect(await order()).toEqual(['Earlier', 'Recent']);
    const taken = await gql(
      reader.client,
      'mutation($d: [CaseUpdateDecisionInput!]!) { updateEffectChains(decisions: $d) { id updateStatus error } }',
      { d: [{ id: cases.Earlier, choice: 'YES' }] },
    );
    expect(taken.body.data.updateEffectChains).toEqual([{ id: cases.Earlier, updateStatus: 'UPDATED', error: null }]);
    expect(await wholeOrder()).toEqual(['Recent', 'Earlier', 'Later Trouble', 'Untouched']);

    // A case that needs attention before it is first opened is first as soon as it is opened.
    await t.db
      .update(caseConfiguration)
      .set({ errorsCount: 1 })
      .where(eq(caseConfiguration.id, cases.Untouched as string));
    await t.db
      .insert(casePlay)
      .values(buildCasePlay({ caseId: cases.Untouched as string, userId: reader.userId }, { lastAccessed: at(5) }));
    expect(await order()).toEqual(['Untouched', 'Recent']);
    // Each play holds its case's attention, as the database keeps it.
    const plays = await t.db
      .select({ caseId: casePlay.caseId, caseAttention: casePlay.caseAttention })
      .from(casePlay)
      .where(eq(casePlay.userId, reader.userId));
    expect(Object.fromEntries(plays.map((play) => [play.caseId, play.caseAttention]))).toEqual({
      [cases.Recent as string]: false,
      [cases.Earlier as string]: false,
      [cases['Later Trouble'] as string]: false,
      [cases.Untouched as string]: true,
    });
  });

  it('answers the document fields of each case from its list projection, which follows every write of the document', async () => {
    const westfield = await insertGroup(t.db, { name: 'Westfield' });
    const reader = await signInNewMember(t, westfield, { role: 'USER' });
    const row = await insertCase({
      name: 'Westfield Syncope',
      ownerId: reader.userId,
      ownerOrgId: westfield,
      tags: 'neuro',
      avatar: { id: 'ines', key: 'INES', name: 'Ines', pictureUrl: '/media/ines' },
      startLocation: { name: 'Office', pictureUrl: '/media/office' },
      learningObjectives: 'Tell syncope from seizure',
      outdatedMedications: ['aspirin'],
    });
    const listed: string[] = [
      'tags',
      'dispatch',
      '_avatar',
      '_startLocation',
      '_endLocation',
      'outdatedMedications',
      'outdatedEcNodes',
      'shares',
      'timed_access',
    ];
    const stored = async () => {
      const [found] = await t.db
        .select({ document: caseConfiguration.document, listDocument: caseConfiguration.listDocument })
        .from(caseConfiguration)
        .where(eq(caseConfiguration.id, row.id));
      return found!;
    };
    // Exactly the fields the API answers from a document, as the document holds them.
    const before = await stored();
    expect(Object.keys(before.listDocument ?? {}).sort()).toEqual([...listed].sort());
    // The keys a page may leave out are exactly those (cases.repository.ts).
    expect([...LIST_DOCUMENT_KEYS].sort()).toEqual([...listed].sort());
    expect(before.listDocument).toEqual(Object.fromEntries(listed.map((key) => [key, before.document[key] ?? null])));

    // The list answers the fields a page shows; the fields sized by the case, one case at a time
    // (graphql-limits.ts). Both read the projection.
    const list = /* GraphQL */ `
      query { caseConfigurations(filters: { madeByMe: true }) { items { id tags dispatch { learningObjectives { caption { en } } }
        _avatar { key name { en } } _startLocation { name { en } } _endLocation { name { en } } } } }
    `;
    const one = /* GraphQL */ `
      query($id: ID!) { caseConfiguration(id: $id) { id outdatedMedications outdatedEcNodes shares { to } timed_access { users } } }
    `;
    const first = await gql(reader.client, list);
    expect(first.status).toBe(200);
    expect(first.body.data.caseConfigurations.items).toEqual([
      {
        id: row.id,
        tags: 'neuro',
        dispatch: { learningObjectives: { caption: { en: 'Tell syncope from seizure' } } },
        _avatar: { key: 'INES', name: { en: 'Ines' } },
        _startLocation: { name: { en: 'Office' } },
        _endLocation: null,
      },
    ]);
    const firstOne = await gql(reader.client, one, { id: row.id });
    expect(firstOne.status).toBe(200);
    expect(firstOne.body.data.caseConfiguration).toEqual({
      id: row.id,
      outdatedMedications: ['aspirin'],
      outdatedEcNodes: [],
      shares: [],
      timed_access: { users: [] },
    });

    // A write of the document (here straight in the database, as a bulk fill would) moves the projection with it.
    await t.db
      .update(caseConfiguration)
      .set({ document: { ...before.document, tags: 'neuro cardiac', _avatar: null, outdatedMedications: [] } })
      .where(eq(caseConfiguration.id, row.id));
    const after = await stored();
    expect(after.listDocument).toEqual(Object.fromEntries(listed.map((key) => [key, after.document[key] ?? null])));
    const second = await gql(reader.client, list);
    expect(second.body.data.caseConfigurations.items[0]).toMatchObject({ tags: 'neuro cardiac', _avatar: null });
    const secondOne = await gql(reader.client, one, { id: row.id });
    expect(secondOne.body.data.caseConfiguration).toMatchObject({ outdatedMedications: [] });
  });

  it('reads the access lists, the searchable text and each document field only when the items select them, by alias or fragment too', async () => {
    const westfield = await insertGroup(t.db, { name: 'Westfield' });
    const reader = await signInNewMember(t, westfield, { role: 'USER' });
    const row = await insertCase({
      name: 'Westfield Asthma',
      ownerId: reader.userId,
      ownerOrgId: westfield,
      tags: 'resp',
      learningObjectives: 'Treat a severe asthma attack',
    });
    const viewer = { userId: reader.userId, readers: [reader.userId], groups: [], roles: [], productTypes: [] };
    const page = async (fields: ResultFields) =>
      (
        await findCaseResultPage(t.db, {
          viewer,
          withAccess: 'READ',
          filters: { madeByMe: true },
          search: null,
          plan: sortPlan(null),
          after: null,
          limit: 2,
          fields,
          countLimit: null,
        })
      ).rows;
    const [lean] = await page({ access: false, searchableText: false, documentKeys: ['tags'] });
    expect(lean?.row).toMatchObject({ id: row.id, listDocument: { tags: 'resp' } });
    expect(lean?.row).not.toHaveProperty('access');
    expect(lean?.row).not.toHaveProperty('searchableText');
    expect(Object.keys(lean?.row.listDocument ?? {})).toEqual(['tags']);
    const [full] = await page(ALL_RESULT_FIELDS);
    const [stored] = await t.db
      .select({ access: caseConfiguration.access, searchableText: caseConfiguration.searchableText })
      .from(caseConfiguration)
      .where(eq(caseConfiguration.id, row.id));
    expect(full?.row).toMatchObject({ id: row.id, access: stored?.access, searchableText: stored?.searchableText });
    expect(Object.keys(full?.row.listDocument ?? {}).sort()).toEqual([...LIST_DOCUMENT_KEYS].sort());

    // Through the API: a field selected by an alias, a fragment or an inline fragment is read. (A
    // list selects neither the access lists nor the searchable text: graphql-limits.ts.)
    const query = /* GraphQL */ `
      query { caseConfigurations(filters: { madeByMe: true }) { items { ...Listed label: tags } } }
      fragment Listed on CaseConfiguration {
        id ... on CaseConfiguration { dispatch { learningObjectives { caption { en } } } }
      }
    `;
    const answer = await gql(reader.client, query);
    expect(answer.body.data.caseConfigurations.items).toEqual([
      {
        id: row.id,
        label: 'resp',
        dispatch: { learningObjectives: { caption: { en: 'Treat a severe asthma attack' } } },
      },
    ]);
  });

  it('counts up to 1,000 cases and then says there are more, on every page', async () => {
    const westfield = await insertGroup(t.db, { name: 'Westfield' });
    const reader = await signInNewMember(t, westfield, { role: 'USER' });
    const rows = Array.from({ length: 1000 }, (_, i) =>
      buildCase({ name: `Westfield ${i}`, ownerId: reader.userId, ownerOrgId: westfield }),
    );
    await t.db.insert(caseConfiguration).values(rows);
    const exact = await gql(reader.client, LIST_COUNT, { filters: { madeByMe: true } });
    expect(exact.body.data.caseConfigurations).toMatchObject({ totalCount: 1000, totalCountCapped: false });
    await t.db
      .insert(caseConfiguration)
      .values(buildCase({ name: 'Westfield 1000', ownerId: reader.userId, ownerOrgId: westfield }));
    const first = await gql(reader.client, LIST_COUNT, { filters: { madeByMe: true } });
    expect(first.body.data.caseConfigurations).toMatchObject({ totalCount: 1000, totalCountCapped: true });
    const next = await gql(reader.client, LIST_COUNT, {
      filters: { madeByMe: true },
      after: first.body.data.caseConfigurations.nextCursor,
    });
    expect(next.body.data.caseConfigurations).toMatchObject({ totalCount: 1000, totalCountCapped: true });
    // A narrower query counts exactly again.
    const searched = await gql(reader.client, LIST_COUNT, { filters: { madeByMe: true }, search: 'westfield 99' });
    expect(searched.body.data.caseConfigurations).toMatchObject({ totalCount: 11, totalCountCapped: false });
  });

  it('answers bad input with 400 VALIDATION_FAILED, never 500', async () => {
    const cases: Array<Record<string, unknown>> = [
      { first: 0 },
      { first: 101 },
      { after: 'not-a-cursor' },
      { after: Buffer.from(JSON.stringify({ s: 'DEFAULT', v: ['x', 1, 'y'], id: 'a' })).toString('base64url') },
      { sortBy: { field: 'NOPE', direction: 'ASC' } },
      { search: 'x'.repeat(201) },
    ];
    for (const variables of cases) {
      const { status, body } = await gql(as.USER.client, LIST, variables);
      expect(status, JSON.stringify(variables)).toBe(400);
      expect(body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    }
    // A cursor of another order is refused too.
    const page = await list(as.USER.client, { first: 1 });
    const other = await gql(as.USER.client, LIST, {
      first: 1,
      after: page.nextCursor,
      sortBy: { field: 'NAME', direction: 'ASC' },
    });
    expect(other.status).toBe(400);
  });

  it('bounds depth, size and syntax of queries', async () => {
    const deepest = await gql(
      as.USER.client,
      '{ caseConfigurations { items { dispatch { chiefComplaint { caption { en } } } } } }',
    );
    expect(deepest.status).toBe(200);
    const tooDeep = await gql(
      as.USER.client,
      '{ __schema { types { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } } }',
    );
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    // A fragment repeated under many aliases counts what it expands to.
    const fragment = `fragment F on CaseConfiguration { id name tags origin createdAt errorsCount warningsCount isFavorite }
      { ${Array.from({ length: 5 }, (_, i) => `a${i}: caseConfigurations { items { ...F } }`).join(' ')}
        ${Array.from({ length: 5 }, (_, i) => `b${i}: caseConfiguration(id: "x") { ${'...F '.repeat(5)}}`).join(' ')} }`;
    const costly = await gql(as.USER.client, fragment);
    expect(costly.status).toBe(400);
    expect(costly.body.errors[0]).toMatchObject({
      message: 'The query selects more than 250 fields.',
      extensions: { code: 'QUERY_TOO_COMPLEX', statusCode: 400 },
    });
    const syntax = await gql(as.USER.client, '{ caseConfigurations {');
    expect(syntax.status).toBe(400);
    const unknownField = await gql(as.USER.client, '{ caseConfigurations { nope } }');
    expect(unknownField.status).toBe(400);
    const notQuery = await as.USER.client.post('/api/graphql', { query: 42 });
    expect(notQuery.statusCode).toBe(400);
    expect(notQuery.json().errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});

describe('templates', () => {
  it('refuses template listing without an organisation and to students, with the spec texts', async () => {
    const lonely = await gql(noOrg.client, LIST, { filters: { template: true } });
    expect(lonely.status).toBe(403);
    expect(lonely.body.errors[0].message).toBe('User does not belong to an organization');
    const student = await gql(as.STUDENT.client, LIST, { filters: { template: true } });
    expect(student.status).toBe(403);
    expect(student.body.errors[0].message).toBe('Student cannot retrieve this info');
    const studentTemplates = await gql(as.STUDENT.client, '{ templateCases(productType: EMS) { id } }');
    expect(studentTemplates.status).toBe(403);
  });

  it('lists the template organisation cases by name to super admins only', async () => {
    const { status, body } = await gql(as.SUPER_ADMIN.client, '{ templateCases(productType: EMS) { name published applab } }');
    expect(status).toBe(200);
    expect(body.data.templateCases).toEqual([
      { name: 'Template Draft', published: false, applab: false },
      { name: 'Template Published', published: true, applab: true },
    ]);
    for (const role of ['ADMIN', 'USER'] as const) {
      expect((await gql(as[role].client, '{ templateCases(productType: EMS) { id } }')).status).toBe(403);
    }
  });

  it('publishes and unpublishes through ALL_ADMINS and ALL_INSTRUCTORS in read and run groups', async () => {
    const id = ids['Template Draft'];
    const publish =
      'mutation($id: ID!, $p: Boolean!) { publishTemplate(id: $id, published: $p) { published access { read { groups } run { groups } } } }';
    const on = await gql(as.SUPER_ADMIN.client, publish, { id, p: true });
    expect(on.body.data.publishTemplate.published).toBe(true);
    expect(on.body.data.publishTemplate.access.read.groups).toEqual(expect.arrayContaining(['ALL_ADMINS', 'ALL_INSTRUCTORS']));
    expect(on.body.data.publishTemplate.access.run.groups).toEqual(expect.arrayContaining(['ALL_ADMINS', 'ALL_INSTRUCTORS']));
    expect(names(await list(as.USER.client, { filters: { template: true } }))).toContain('Template Draft');
    const off = await gql(as.SUPER_ADMIN.client, publish, { id, p: false });
    expect(off.body.data.publishTemplate.published).toBe(false);
    expect(off.body.data.publishTemplate.access.read.groups).not.toContain('ALL_ADMINS');
    expect(names(await list(as.USER.client, { filters: { template: true } }))).not.toContain('Template Draft');
    expect((await gql(as.ADMIN.client, publish, { id, p: true })).status).toBe(403);
    const notTemplate = await gql(as.SUPER_ADMIN.client, publish, { id: ids['Chest Pain'], p: true });
    expect(notTemplate.body.errors[0].extensions.code).toBe('CASE_NOT_TEMPLATE');
  });

  it('adds and removes the product type App Lab organisation', async () => {
    const id = ids['Template Draft'];
    const mutation =
      'mutation($id: ID!, $a: Boolean!) { setTemplateAppLab(id: $id, applab: $a) { applab access { read { groups } run { groups } } } }';
    const on = await gql(as.SUPER_ADMIN.client, mutation, { id, a: true });
    expect(on.body.data.setTemplateAppLab.applab).toBe(true);
    expect(on.body.data.setTemplateAppLab.access.run.groups).toContain(emsAppLab);
    expect(names(await list(appLabUser.client, { first: 100 }))).toContain('Template Draft');
    const off = await gql(as.SUPER_ADMIN.client, mutation, { id, a: false });
    expect(off.body.data.setTemplateAppLab.applab).toBe(false);
    expect(off.body.data.setTemplateAppLab.access.read.groups).not.toContain(emsAppLab);
  });
});

describe('favourites and effect-chain updates', () => {
  it('adds and removes a favourite of a readable case; the filter follows', async () => {
    const id = ids['Chest Pain'];
    const add = await gql(as.STUDENT.client, 'mutation($id: ID!) { addFavorite(id: $id) { id isFavorite } }', { id });
    expect(add.body.data.addFavorite).toEqual({ id, isFavorite: true });
    expect(names(await list(as.STUDENT.client, { filters: { favorited: true } }))).toEqual(['Chest Pain']);
    // Another user's favourites are theirs.
    expect(names(await list(as.USER.client, { filters: { favorited: true } }))).toEqual([]);
    const remove = await gql(as.STUDENT.client, 'mutation($id: ID!) { removeFavorite(id: $id) { isFavorite } }', { id });
    expect(remove.body.data.removeFavorite.isFavorite).toBe(false);
    expect(await t.db.select().from(caseFavorite)).toEqual([]);
  });

  it('YES updates (or errors when the case still fails validation), NO declines, others answer an error', async () => {
    const mutation =
      'mutation($d: [CaseUpdateDecisionInput!]!) { updateEffectChains(decisions: $d) { id updateStatus ignoreEcUpdate error errorCode } }';
    const { status, body } = await gql(as.USER.client, mutation, {
      d: [
        { id: ids.Anaphylaxis, choice: 'YES' },
        { id: ids['Crush Injury'], choice: 'YES' },
        { id: ids.Stroke, choice: 'NO' },
        { id: ids['Chest Pain'], choice: 'YES' },
        { id: ids['Northgate Own'], choice: 'YES' },
      ],
    });
    expect(status).toBe(200);
    expect(body.data.updateEffectChains).toEqual([
      { id: ids.Anaphylaxis, updateStatus: 'UPDATED', ignoreEcUpdate: false, error: null, errorCode: null },
      { id: ids['Crush Injury'], updateStatus: 'ERRORED', ignoreEcUpdate: false, error: null, errorCode: null },
      { id: ids.Stroke, updateStatus: 'DECLINED', ignoreEcUpdate: true, error: null, errorCode: null },
      {
        id: ids['Chest Pain'],
        updateStatus: null,
        ignoreEcUpdate: false,
        error: 'This case has no pending update.',
        errorCode: 'CASE_UPDATE_NOT_PENDING',
      },
      { id: ids['Northgate Own'], updateStatus: null, ignoreEcUpdate: false, error: 'Case not found.', errorCode: 'NOT_FOUND' },
    ]);
    const [row] = await t.db
      .select()
      .from(caseConfiguration)
      .where(eq(caseConfiguration.id, ids.Anaphylaxis as string));
    expect(row?.needsEcUpdate).toBe(false);
    expect((row?.document as { outdatedMedications: string[] }).outdatedMedications).toEqual([]);
    // A student reads the instructor's case but cannot write it: refused with the reason.
    const student = await gql(as.STUDENT.client, mutation, { d: [{ id: ids.Stroke, choice: 'YES' }] });
    expect(student.body.data.updateEffectChains[0].errorCode).toBe('CASE_UPDATE_REFUSED');
    // A declined update is made in the Medications or Case Logic panel: the list cannot decide it again.
    const again = await gql(as.USER.client, mutation, { d: [{ id: ids.Stroke, choice: 'YES' }] });
    expect(again.body.data.updateEffectChains).toEqual([
      {
        id: ids.Stroke,
        updateStatus: 'DECLINED',
        ignoreEcUpdate: true,
        error: 'This case has no pending update.',
        errorCode: 'CASE_UPDATE_NOT_PENDING',
      },
    ]);
  });

  it("offers an update only on the caller's own cases; a decision on a colleague's case is refused with its reason", async () => {
    const copd = await insertCase({
      name: 'COPD Exacerbation',
      ownerId: as.USER.userId,
      ownerOrgId: riverside,
      needsEcUpdate: true,
      outdatedMedications: ['Albuterol'],
    });
    try {
      const listed = async (client: Client) => {
        const { status, body } = await gql(
          client,
          'query($s: String) { caseConfigurations(search: $s) { items { id canUpdate } } }',
          { s: 'COPD' },
        );
        expect(status).toBe(200);
        return body.data.caseConfigurations.items;
      };
      // The admin reads the instructor's case but is not offered its update; the author is.
      expect(await listed(as.ADMIN.client)).toEqual([{ id: copd.id, canUpdate: false }]);
      expect(await listed(as.USER.client)).toEqual([{ id: copd.id, canUpdate: true }]);
      const single = await gql(as.ADMIN.client, 'query($id: ID!) { caseConfiguration(id: $id) { canUpdate } }', {
        id: copd.id,
      });
      expect(single.body.data.caseConfiguration).toEqual({ canUpdate: false });

      const mutation =
        'mutation($d: [CaseUpdateDecisionInput!]!) { updateEffectChains(decisions: $d) { id updateStatus ignoreEcUpdate error errorCode } }';
      for (const choice of ['YES', 'NO']) {
        const { status, body } = await gql(as.ADMIN.client, mutation, { d: [{ id: copd.id, choice }] });
        expect(status).toBe(200);
        expect(body.data.updateEffectChains).toEqual([
          {
            id: copd.id,
            updateStatus: null,
            ignoreEcUpdate: false,
            error: "Only the case's author, or someone they gave edit access, can update this case.",
            errorCode: 'CASE_UPDATE_REFUSED',
          },
        ]);
      }
      const [row] = await t.db.select().from(caseConfiguration).where(eq(caseConfiguration.id, copd.id));
      expect(row?.needsEcUpdate).toBe(true);
      expect(row?.ignoreEcUpdate).toBe(false);
      expect(row?.updateStatus).toBeNull();
      // Another organisation's case is still not told apart from an unknown one.
      const foreign = await gql(outsider.client, mutation, { d: [{ id: copd.id, choice: 'YES' }] });
      expect(foreign.body.data.updateEffectChains[0].errorCode).toBe('NOT_FOUND');
    } finally {
      await t.db.delete(caseConfiguration).where(eq(caseConfiguration.id, copd.id));
      delete ids['COPD Exacerbation'];
    }
  });

  it('refuses writes while viewing as another user', async () => {
    const client = await viewingAs(t, { userId: as.USER.userId, viewer: as.SUPER_ADMIN });
    const { status, body } = await gql(client, 'mutation($id: ID!) { addFavorite(id: $id) { id } }', { id: ids.Asthma });
    expect(status).toBe(403);
    expect(body.errors[0].extensions.code).toBe('VIEW_AS_READ_ONLY');
    expect((await list(client)).totalCount).toBeGreaterThan(0);
  });
});

describe('case writes, dump and restore', () => {
  it('duplicates, saves and removes a case with write access; others are refused', async () => {
    const dup = await gql(
      as.USER.client,
      'mutation($id: ID!, $n: String!) { duplicateCaseConfiguration(id: $id, newCaseName: $n) { id name author { id } isTemplate } }',
      { id: ids['Chest Pain'], n: 'Chest Pain (copy)' },
    );
    expect(dup.status).toBe(200);
    const copy = dup.body.data.duplicateCaseConfiguration;
    expect(copy).toMatchObject({ name: 'Chest Pain (copy)', author: { id: as.USER.userId }, isTemplate: false });
    const save = await gql(
      as.USER.client,
      'mutation($id: ID!, $d: JSON!) { saveCaseConfiguration(id: $id, document: $d) { name tags searchableText access { owner } } }',
      { id: copy.id, d: { name: 'Renamed', tags: 'Trauma', isTemplate: true, access: { owner: 'someone-else' } } },
    );
    expect(save.body.data.saveCaseConfiguration).toMatchObject({
      name: 'Renamed',
      tags: 'Trauma',
      access: { owner: as.USER.userId },
    });
    const [saved] = await t.db.select().from(caseConfiguration).where(eq(caseConfiguration.id, copy.id));
    expect(saved?.isTemplate).toBe(false);
    expect(names(await list(as.USER.client, { search: 'trauma' }))).toEqual(['Renamed']);
    const badSave = await gql(
      as.USER.client,
      'mutation($id: ID!, $d: JSON!) { saveCaseConfiguration(id: $id, document: $d) { id } }',
      {
        id: copy.id,
        d: { name: '' },
      },
    );
    expect(badSave.status).toBe(400);
    const studentRemoval = await gql(as.STUDENT.client, 'mutation($id: ID!) { removeCaseConfiguration(id: $id) }', {
      id: copy.id,
    });
    expect(studentRemoval.status).toBe(404);
    const removal = await gql(as.USER.client, 'mutation($id: ID!) { removeCaseConfiguration(id: $id) }', { id: copy.id });
    expect(removal.body.data.removeCaseConfiguration).toBe(true);
    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.targetId, copy.id));
    expect(events.map((e) => e.action).sort()).toEqual(['case.duplicate', 'case.remove']);
  });

  it('dump then restore gives an equal document; bulk removal takes it away', async () => {
    const dump = await gql(as.SUPER_ADMIN.client, 'mutation($id: ID!) { dumpCase(id: $id) }', { id: ids.Asthma });
    expect(dump.status).toBe(200);
    const document = dump.body.data.dumpCase;
    expect(document).toMatchObject({ name: 'Asthma', tags: 'respiratory pediatric' });
    expect(document.access).toBeUndefined();
    const restored = await gql(
      as.SUPER_ADMIN.client,
      'mutation($d: JSON!, $o: ID!) { restoreCase(dump: $d, ownerOrg: $o) { id name access { ownerOrg } } }',
      { d: document, o: northgate },
    );
    expect(restored.status).toBe(200);
    const copy = restored.body.data.restoreCase;
    expect(copy.access.ownerOrg).toBe(northgate);
    const again = await gql(as.SUPER_ADMIN.client, 'mutation($id: ID!) { dumpCase(id: $id) }', { id: copy.id });
    expect(again.body.data.dumpCase).toEqual(document);
    expect(names(await list(outsider.client, { search: 'asthma' }))).toEqual(['Asthma']);
    for (const role of ['ADMIN', 'USER', 'STUDENT'] as const) {
      expect((await gql(as[role].client, 'mutation($id: ID!) { dumpCase(id: $id) }', { id: ids.Asthma })).status).toBe(403);
      expect(
        (await gql(as[role].client, 'mutation($ids: [ID!]!) { bulkRemoveCaseConfigurations(ids: $ids) }', { ids: [copy.id] }))
          .status,
      ).toBe(403);
    }
    const unknownOrg = await gql(
      as.SUPER_ADMIN.client,
      'mutation($d: JSON!, $o: ID!) { restoreCase(dump: $d, ownerOrg: $o) { id } }',
      {
        d: document,
        o: 'no-such-org',
      },
    );
    expect(unknownOrg.status).toBe(404);
    const removed = await gql(as.SUPER_ADMIN.client, 'mutation($ids: [ID!]!) { bulkRemoveCaseConfigurations(ids: $ids) }', {
      ids: [copy.id, 'unknown-id'],
    });
    expect(removed.body.data.bulkRemoveCaseConfigurations).toBe(1);
    expect(await t.db.select().from(caseConfiguration).where(eq(caseConfiguration.id, copy.id))).toEqual([]);
  });

  it('upserts access lists and the template flag (super admins)', async () => {
    const mutation = `mutation($id: ID!, $access: CaseAccessInput, $t: Boolean) {
      upsertCaseConfiguration(id: $id, access: $access, isTemplate: $t) { isTemplate access { read { users } } } }`;
    const empty = { groups: [], users: [], roles: [], productType: [] };
    const access = { read: { ...empty, users: [outsider.userId] }, write: empty, run: empty, share: empty };
    const { status, body } = await gql(as.SUPER_ADMIN.client, mutation, { id: ids.Burns, access, t: false });
    expect(status).toBe(200);
    expect(body.data.upsertCaseConfiguration.access.read.users).toEqual([outsider.userId]);
    expect(names(await list(outsider.client, { search: 'burns' }))).toEqual(['Burns']);
    expect((await gql(as.ADMIN.client, mutation, { id: ids.Burns, access })).status).toBe(403);
  });
});

describe('GET /api/cases/:id', () => {
  it('is documented in OpenAPI; GraphQL is served by POST only', async () => {
    const document = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(Object.keys(document.paths)).toContain('/api/cases/{id}');
    const get = await as.USER.client.get('/api/graphql?query=%7BcaseConfigurations%7BtotalCount%7D%7D');
    expect(get.statusCode).toBe(404);
  });

  it('answers the portable document to a reader with the access code', async () => {
    const id = ids['Chest Pain'];
    const ok = await as.STUDENT.client.get(`/api/cases/${id}`, { [CASE_ACCESS_CODE_HEADER]: ACCESS_CODE });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Chest Pain' });
    const refusedHeaders: Array<Record<string, string>> = [{}, { [CASE_ACCESS_CODE_HEADER]: 'wrong-access-code-0123456789' }];
    for (const headers of refusedHeaders) {
      const refused = await as.STUDENT.client.get(`/api/cases/${id}`, headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ statusCode: 403, code: 'CASE_ACCESS_CODE_INVALID' });
    }
    const other = await outsider.client.get(`/api/cases/${id}`, { [CASE_ACCESS_CODE_HEADER]: ACCESS_CODE });
    expect(other.statusCode).toBe(404);
    const none = await t.app.inject({
      method: 'GET',
      url: `/api/cases/${id}`,
      headers: { [CASE_ACCESS_CODE_HEADER]: ACCESS_CODE },
    });
    expect(none.statusCode).toBe(401);
    const bad = await as.STUDENT.client.get('/api/cases/bad%20id', { [CASE_ACCESS_CODE_HEADER]: ACCESS_CODE });
    expect(bad.statusCode).toBe(400);
  });
});

/** What each role gets from each operation (a matrix of the GraphQL API). */
describe('GraphQL operations by role', () => {
  const OPERATIONS: Record<string, { query: string; variables: () => Record<string, unknown>; allowed: readonly Role[] }> = {
    caseConfigurations: { query: '{ caseConfigurations { totalCount } }', variables: () => ({}), allowed: ROLES },
    caseConfiguration: {
      query: 'query($id: ID!) { caseConfiguration(id: $id) { id } }',
      variables: () => ({ id: ids.Asthma }),
      allowed: ROLES,
    },
    templateCases: { query: '{ templateCases(productType: EMS) { id } }', variables: () => ({}), allowed: ['SUPER_ADMIN'] },
    dumpCase: {
      query: 'mutation($id: ID!) { dumpCase(id: $id) }',
      variables: () => ({ id: ids.Asthma }),
      allowed: ['SUPER_ADMIN'],
    },
    publishTemplate: {
      query: 'mutation($id: ID!) { publishTemplate(id: $id, published: true) { id } }',
      variables: () => ({ id: ids['Template Published'] }),
      allowed: ['SUPER_ADMIN'],
    },
    setTemplateAppLab: {
      query: 'mutation($id: ID!) { setTemplateAppLab(id: $id, applab: true) { id } }',
      variables: () => ({ id: ids['Template Published'] }),
      allowed: ['SUPER_ADMIN'],
    },
    bulkRemoveCaseConfigurations: {
      query: 'mutation { bulkRemoveCaseConfigurations(ids: ["no-such-case"]) }',
      variables: () => ({}),
      allowed: ['SUPER_ADMIN'],
    },
    addFavorite: {
      query: 'mutation($id: ID!) { addFavorite(id: $id) { id } }',
      variables: () => ({ id: ids.Asthma }),
      allowed: ['STUDENT', 'USER', 'ADMIN'],
    },
  };
  for (const [name, operation] of Object.entries(OPERATIONS)) {
    for (const role of ROLES) {
      const allowed = operation.allowed.includes(role);
      it(`${name}: ${role} ${allowed ? 'allowed' : 'refused'}`, async () => {
        const { status, body } = await gql(as[role].client, operation.query, operation.variables());
        if (allowed) expect(status, JSON.stringify(body.errors)).toBe(200);
        else expect([403, 404]).toContain(status);
      });
    }
  }
});
