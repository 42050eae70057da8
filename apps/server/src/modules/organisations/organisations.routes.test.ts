import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Group, parseGroupMetadata, prefixSubgroupName } from '@patientsim/domain/groups/group.schemas';
import { auditEvent } from '../../db/schema/audit.js';
import { group, groupMember } from '../../db/schema/groups.js';
import { user } from '../../db/schema/auth.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { addMember, insertGroup, insertUser } from '../../../test/fixtures.js';

type Session = Awaited<ReturnType<typeof signInAs>>;

let t: TestApp;
let orgA: string;
let orgB: string;
let cohort: string;
let otherCohort: string;
let sandbox: string;
const people = {} as Record<
  'keyOwner' | 'admin' | 'instructor' | 'student' | 'outsider' | 'super',
  { id: string; email: string }
>;
const as = {} as Record<keyof typeof people, Session>;

const call = (session: Session, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  session.client.request({ method, url: `/api/users${url}`, ...(payload === undefined ? {} : { payload: payload as object }) });

const groupRow = async (id: string) => (await t.db.select().from(group).where(eq(group.id, id)))[0];

beforeAll(async () => {
  t = await buildTestApp();
  people.keyOwner = await insertUser(t.db, { role: 'ADMIN', givenName: 'Kim', familyName: 'Owner' });
  people.admin = await insertUser(t.db, { role: 'ADMIN' });
  people.instructor = await insertUser(t.db, { role: 'USER' });
  people.student = await insertUser(t.db, { role: 'STUDENT' });
  people.outsider = await insertUser(t.db, { role: 'ADMIN' });
  people.super = await insertUser(t.db, { role: 'SUPER_ADMIN' });
  orgA = await insertGroup(t.db, { name: 'Alpha Academy', seats: 10, ownerId: people.keyOwner.id });
  orgB = await insertGroup(t.db, { name: 'Beta College', seats: 5, ownerId: people.outsider.id });
  for (const [key, role] of [
    ['keyOwner', 'ADMIN'],
    ['admin', 'ADMIN'],
    ['instructor', 'USER'],
    ['student', 'STUDENT'],
  ] as const)
    await addMember(t.db, orgA, people[key].id, role);
  await addMember(t.db, orgB, people.outsider.id, 'ADMIN');
  cohort = await insertGroup(t.db, { name: prefixSubgroupName(orgA, 'Cohort A'), parentId: orgA, ownerId: people.instructor.id });
  otherCohort = await insertGroup(t.db, {
    name: prefixSubgroupName(orgB, 'Cohort B'),
    parentId: orgB,
    ownerId: people.outsider.id,
  });
  sandbox = await insertGroup(t.db, { name: prefixSubgroupName(orgA, 'Sandbox'), parentId: orgA, testing: true });
  for (const key of Object.keys(people) as Array<keyof typeof people>)
    as[key] = await signInAs(t, people[key].email, 'Test-Pass-2026');
});

describe('GET /extension/groups', () => {
  it('gives the provider every group, others their own; organisations have no parent', async () => {
    const all: Group[] = (await call(as.super, 'GET', '/extension/groups')).json();
    expect(all.map((g) => g._id)).toEqual(expect.arrayContaining([orgA, orgB, cohort, otherCohort]));
    expect(parseGroupMetadata(all.find((g) => g._id === orgA) as Group)?.parent).toBeUndefined();
    const own: Group[] = (await call(as.admin, 'GET', '/extension/groups')).json();
    expect(own.map((g) => g._id)).toEqual([orgA]);
  });
});

describe('GET /extension/groups/:id and /nested', () => {
  it('answers a group of the organisation, 404 for another organisation', async () => {
    const found = await call(as.instructor, 'GET', `/extension/groups/${cohort}`);
    expect(found.statusCode).toBe(200);
    expect(found.json().name).toBe(prefixSubgroupName(orgA, 'Cohort A'));
    expect((await call(as.instructor, 'GET', `/extension/groups/${otherCohort}`)).statusCode).toBe(404);
    expect((await call(as.student, 'GET', `/extension/groups/${cohort}`)).statusCode).toBe(403);
  });

  it('lists the sub-groups to admins, with their metadata', async () => {
    const nested: Group[] = (await call(as.admin, 'GET', `/extension/groups/${orgA}/nested`)).json();
    expect(nested).toHaveLength(2);
    expect(nested.every((g) => parseGroupMetadata(g)?.parent === orgA)).toBe(true);
    expect(nested.some((g) => parseGroupMetadata(g)?.testing)).toBe(true);
    expect((await call(as.instructor, 'GET', `/extension/groups/${orgA}/nested`)).statusCode).toBe(403);
    expect((await call(as.outsider, 'GET', `/extension/groups/${orgA}/nested`)).statusCode).toBe(404);
  });
});

describe('GET /extension/groups/:id/key-owner', () => {
  const keyOwnerOf = async (session: Session, groupId: string) => {
    const response = await call(session, 'GET', `/extension/groups/${groupId}/key-owner`);
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it("gives the organisation's admins and the provider the key owner's e-mail", async () => {
    for (const session of [as.admin, as.keyOwner, as.super]) {
      expect(await keyOwnerOf(session, orgA)).toEqual({
        user_id: people.keyOwner.id,
        email: people.keyOwner.email,
        given_name: 'Kim',
        family_name: 'Owner',
      });
    }
  });

  it('gives students and instructors the key owner without the e-mail, for an organisation and a sub-group alike', async () => {
    for (const session of [as.student, as.instructor]) {
      expect(await keyOwnerOf(session, orgA)).toEqual({ user_id: people.keyOwner.id, given_name: 'Kim', family_name: 'Owner' });
      const groupAdmin = await keyOwnerOf(session, cohort);
      expect(groupAdmin.user_id).toBe(people.instructor.id);
      expect(groupAdmin).not.toHaveProperty('email');
    }
    expect((await keyOwnerOf(as.admin, cohort)).email).toBe(people.instructor.email);
  });

  it('answers null, not an error, for a group or an organisation that has none', async () => {
    for (const session of [as.admin, as.student]) {
      const response = await call(session, 'GET', `/extension/groups/${sandbox}/key-owner`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toBeNull();
    }
    const ownerless = await insertGroup(t.db, { name: 'Gamma Institute', seats: 3 });
    const response = await call(as.super, 'GET', `/extension/groups/${ownerless}/key-owner`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('null');
  });

  it('answers 404 to another organisation', async () => {
    expect((await call(as.outsider, 'GET', `/extension/groups/${orgA}/key-owner`)).statusCode).toBe(404);
  });
});

describe('POST /extension/groups', () => {
  const body = (name: string, parent = orgA) => ({ name, description: JSON.stringify({ parent }) });

  it('creates a prefixed sub-group owned by its creator, audited', async () => {
    const response = await call(as.admin, 'POST', '/extension/groups', body('  Night Shift '));
    expect(response.statusCode).toBe(200);
    const created: Group = response.json();
    expect(created.name).toBe(prefixSubgroupName(orgA, 'Night Shift'));
    expect(parseGroupMetadata(created)).toMatchObject({ parent: orgA, ownerId: people.admin.id, memberCount: 0 });
    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.targetId, created._id));
    expect(events.map((e) => e.action)).toEqual(['group.create']);
    // A client that already sends the prefix is not prefixed twice.
    const again = await call(as.admin, 'POST', '/extension/groups', body(prefixSubgroupName(orgA, 'Day Shift')));
    expect(again.json().name).toBe(prefixSubgroupName(orgA, 'Day Shift'));
  });

  it('refuses a taken name naming it without its prefix', async () => {
    const response = await call(as.admin, 'POST', '/extension/groups', body('Cohort A'));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'GROUP_NAME_TAKEN',
      message: "A group named 'Cohort A' already exists in this organization.",
    });
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const before = (await t.db.select().from(group)).length;
    for (const payload of [
      body('x'.repeat(41)),
      body('   '),
      body('bad\u0000name'),
      { name: 'No metadata', description: 'not json' },
      { name: 'No parent', description: '{}' },
      { name: 'Bad parent', description: JSON.stringify({ parent: '../x' }) },
    ]) {
      const response = await call(as.admin, 'POST', '/extension/groups', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await call(as.admin, 'POST', '/extension/groups', body('x'.repeat(40)))).statusCode).toBe(200);
    expect((await t.db.select().from(group)).length).toBe(before + 1);
  });

  it('refuses instructors (403), another organisation (404) and a sub-group as parent (400)', async () => {
    expect((await call(as.instructor, 'POST', '/extension/groups', body('Mine'))).statusCode).toBe(403);
    expect((await call(as.outsider, 'POST', '/extension/groups', body('Theirs'))).statusCode).toBe(404);
    expect((await call(as.admin, 'POST', '/extension/groups', body('Nested', cohort))).statusCode).toBe(400);
  });
});

describe('PATCH /extension/groups/:id', () => {
  it('renames a sub-group by its owner (an instructor) and by an admin, not by a student', async () => {
    const byOwner = await call(as.instructor, 'PATCH', `/extension/groups/${cohort}`, { name: 'Cohort One' });
    expect(byOwner.statusCode).toBe(200);
    expect(byOwner.json().name).toBe(prefixSubgroupName(orgA, 'Cohort One'));
    expect((await call(as.admin, 'PATCH', `/extension/groups/${cohort}`, { name: 'Cohort A' })).statusCode).toBe(200);
    expect((await call(as.student, 'PATCH', `/extension/groups/${cohort}`, { name: 'Mine' })).statusCode).toBe(403);
    expect((await call(as.outsider, 'PATCH', `/extension/groups/${cohort}`, { name: 'Theirs' })).statusCode).toBe(404);
  });

  it('lets the key owner rename the organisation, not an instructor', async () => {
    expect((await call(as.keyOwner, 'PATCH', `/extension/groups/${orgA}`, { name: 'Alpha Academy 2' })).statusCode).toBe(200);
    expect((await call(as.instructor, 'PATCH', `/extension/groups/${orgA}`, { name: 'Mine' })).statusCode).toBe(403);
    expect((await groupRow(orgA))?.name).toBe('Alpha Academy 2');
  });

  it('lets the key owner describe the organisation, trimmed, answered in the metadata; not an instructor or another organisation', async () => {
    const response = await call(as.keyOwner, 'PATCH', `/extension/groups/${orgA}`, {
      about: '  Evening paramedic cohort\nSince 2019 ',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(parseGroupMetadata(response.json())?.about).toBe('Evening paramedic cohort\nSince 2019');
    expect((await call(as.instructor, 'PATCH', `/extension/groups/${orgA}`, { about: 'Mine' })).statusCode).toBe(403);
    expect((await call(as.outsider, 'PATCH', `/extension/groups/${orgA}`, { about: 'Theirs' })).statusCode).toBe(404);
    for (const about of ['z'.repeat(501), 'nul\u0000', 42]) {
      const refused = await call(as.keyOwner, 'PATCH', `/extension/groups/${orgA}`, { about });
      expect(refused.statusCode, String(about)).toBe(400);
    }
    expect((await groupRow(orgA))?.about).toBe('Evening paramedic cohort\nSince 2019');
    // An empty description clears it: the metadata no longer carries one.
    const cleared = await call(as.keyOwner, 'PATCH', `/extension/groups/${orgA}`, { about: '' });
    expect(parseGroupMetadata(cleared.json())).not.toHaveProperty('about');
  });

  it('refuses seats, product type and flags from anyone but the provider, writing nothing', async () => {
    for (const payload of [
      { seats: 99 },
      { productType: 'NURSING' },
      { testing: true },
      { inactive: true },
      { name: 'Renamed too', ai: true },
      { description: JSON.stringify({ seats: 99 }) },
    ]) {
      const response = await call(as.keyOwner, 'PATCH', `/extension/groups/${orgA}`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(403);
    }
    const row = await groupRow(orgA);
    expect(row).toMatchObject({
      name: 'Alpha Academy 2',
      seats: 10,
      productType: 'EMS',
      testing: false,
      ai: false,
      inactive: false,
    });
  });

  it('lets the provider change seats, product type and status, top level or in description', async () => {
    const response = await call(as.super, 'PATCH', `/extension/groups/${orgB}`, {
      seats: 12,
      description: JSON.stringify({ productType: 'NURSING', testing: true, memberCount: 1 }),
    });
    expect(response.statusCode).toBe(200);
    expect(parseGroupMetadata(response.json())).toMatchObject({ seats: 12, productType: 'NURSING', testing: true });
    await call(as.super, 'PATCH', `/extension/groups/${orgB}`, { productType: 'EMS', testing: false });
  });

  it('refuses non-integer seats and other bad input with 400', async () => {
    for (const payload of [
      { seats: 1.5 },
      { seats: '10' },
      { seats: -1 },
      { name: 'y'.repeat(41) },
      { name: 'nul\u0000' },
      { unknown: true },
      {},
      { description: 'nope' },
    ]) {
      const response = await call(as.super, 'PATCH', `/extension/groups/${orgB}`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await groupRow(orgB))?.seats).toBe(12);
  });

  it('changes the key owner only to an admin member, by the key owner or the provider', async () => {
    const toStudent = await call(as.keyOwner, 'PATCH', `/extension/groups/${orgA}`, { ownerId: people.student.id });
    expect(toStudent.json().code).toBe('KEY_OWNER_MUST_BE_ADMIN');
    const toOutsider = await call(as.keyOwner, 'PATCH', `/extension/groups/${orgA}`, { ownerId: people.outsider.id });
    expect(toOutsider.statusCode).toBe(404);
    const byAdmin = await call(as.admin, 'PATCH', `/extension/groups/${orgA}`, { ownerId: people.admin.id });
    expect(byAdmin.statusCode).toBe(403);
    expect((await groupRow(orgA))?.ownerId).toBe(people.keyOwner.id);

    const moved = await call(as.keyOwner, 'PATCH', `/extension/groups/${orgA}`, { ownerId: people.admin.id });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().owner).toBe(people.admin.id);
    // No longer key owner: the former one cannot take it back.
    expect((await call(as.keyOwner, 'PATCH', `/extension/groups/${orgA}`, { ownerId: people.keyOwner.id })).statusCode).toBe(403);
    const back = await call(as.super, 'PATCH', `/extension/groups/${orgA}`, { ownerId: people.keyOwner.id });
    expect(back.statusCode).toBe(200);
    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.action, 'group.change-owner'));
    expect(events).toHaveLength(2);
  });
});

describe('group members', () => {
  it('adds members of the organisation to a sub-group, not strangers', async () => {
    const added = await call(as.admin, 'PATCH', `/extension/groups/${cohort}/members`, [people.student.id, people.admin.id]);
    expect(added.statusCode).toBe(200);
    const memberCount = parseGroupMetadata((await call(as.admin, 'GET', `/extension/groups/${cohort}`)).json())?.memberCount;
    expect(memberCount).toBe(2);
    const stranger = await call(as.admin, 'PATCH', `/extension/groups/${cohort}/members`, [people.outsider.id]);
    expect(stranger.statusCode).toBe(404);
    expect((await call(as.admin, 'PATCH', `/extension/groups/${orgA}/members`, [people.student.id])).statusCode).toBe(422);
    expect((await call(as.admin, 'PATCH', `/extension/groups/${cohort}/members`, [])).statusCode).toBe(400);
    expect((await call(as.student, 'PATCH', `/extension/groups/${cohort}/members`, [people.student.id])).statusCode).toBe(403);
    expect((await call(as.outsider, 'PATCH', `/extension/groups/${otherCohort}/members`, [people.student.id])).statusCode).toBe(
      404,
    );
    expect((await call(as.admin, 'PATCH', `/extension/groups/${otherCohort}/members`, [people.student.id])).statusCode).toBe(404);
  });

  it('removes them again', async () => {
    const removed = await call(as.admin, 'DELETE', `/extension/groups/${cohort}/members`, [people.student.id]);
    expect(removed.statusCode).toBe(200);
    const rows = await t.db.select().from(groupMember).where(eq(groupMember.groupId, cohort));
    expect(rows.map((r) => r.userId)).toEqual([people.admin.id]);
  });
});

describe('GET /extension/groups/:id/member-search', () => {
  const search = (session: Session, id: string, query: string) =>
    call(session, 'GET', `/extension/groups/${id}/member-search?${query}`);

  it('finds members of the organisation by e-mail or name, by role, in or out of a group', async () => {
    const byName = (await search(as.admin, orgA, 'term=owner')).json().users;
    expect(byName.map((u: { user_id: string }) => u.user_id)).toEqual([people.keyOwner.id]);
    const admins = (await search(as.keyOwner, orgA, 'term=example.test&role=ADMIN')).json().users;
    expect(admins.map((u: { user_id: string }) => u.user_id).sort()).toEqual([people.keyOwner.id, people.admin.id].sort());
    expect(admins.every((u: { role: string }) => u.role === 'ADMIN')).toBe(true);
    const listed = (await search(as.instructor, cohort, 'inGroup=true')).json().users;
    expect(listed.map((u: { user_id: string }) => u.user_id)).toEqual([people.admin.id]);
    const candidates = (await search(as.admin, cohort, 'term=example.test&inGroup=false')).json().users;
    expect(candidates.map((u: { user_id: string }) => u.user_id)).not.toContain(people.admin.id);
    expect(candidates.map((u: { user_id: string }) => u.user_id)).toContain(people.student.id);
    expect(candidates.map((u: { user_id: string }) => u.user_id)).not.toContain(people.outsider.id);
    // LIKE wildcards are searched literally.
    expect((await search(as.admin, orgA, 'term=%25%25%25')).json().users).toEqual([]);
  });

  it("pages a group's members by name with the true total: none is dropped", async () => {
    const org = await insertGroup(t.db, { name: 'Paging Academy', seats: 100 });
    const cls = await insertGroup(t.db, { name: 'Paging Academy::Class', parentId: org });
    const teacher = await insertUser(t.db, { role: 'ADMIN', givenName: 'Tia', familyName: 'Teacher' });
    await addMember(t.db, org, teacher.id, 'ADMIN');
    const session = await signInAs(t, teacher.email, teacher.password);
    const emails: string[] = [];
    for (let i = 1; i <= 55; i += 1) {
      const nn = String(i).padStart(2, '0');
      const member = await insertUser(t.db, { givenName: 'Pupil', familyName: `Pupil ${nn}`, email: `pupil${nn}@paging.test` });
      await addMember(t.db, org, member.id, 'STUDENT');
      await addMember(t.db, cls, member.id, 'STUDENT');
      emails.push(member.email);
    }
    const page = async (query: string) => {
      const response = await search(session, cls, query);
      expect(response.statusCode, query).toBe(200);
      return response.json<{ users: Array<{ email: string }>; total: number }>();
    };
    const first = await page('inGroup=true');
    const second = await page('inGroup=true&offset=50');
    expect([first.total, second.total]).toEqual([55, 55]);
    expect(first.users).toHaveLength(50);
    expect([...first.users, ...second.users].map((u) => u.email)).toEqual(emails);
    const found = await page('term=pupil&inGroup=true&offset=10&count=5');
    expect(found).toEqual({ total: 55, users: expect.any(Array) });
    expect(found.users.map((u) => u.email)).toEqual(emails.slice(10, 15));
    expect((await search(session, cls, 'inGroup=true&count=101')).statusCode).toBe(400);
    expect((await search(session, cls, 'inGroup=true&offset=-1')).statusCode).toBe(400);
  });

  it('refuses listing an organisation whole, short terms, students and other organisations', async () => {
    expect((await search(as.admin, orgA, 'inGroup=true')).statusCode).toBe(400);
    expect((await search(as.admin, orgA, '')).statusCode).toBe(400);
    expect((await search(as.admin, orgA, 'term=ab')).statusCode).toBe(400);
    expect((await search(as.admin, orgA, 'term=abc&role=KING')).statusCode).toBe(400);
    expect((await search(as.student, orgA, 'term=owner')).statusCode).toBe(403);
    expect((await search(as.outsider, orgA, 'term=owner')).statusCode).toBe(404);
    expect((await search(as.admin, otherCohort, 'inGroup=true')).statusCode).toBe(404);
  });
});

describe('GET /search/groups', () => {
  it('finds groups fuzzily within the organisation; the provider everywhere', async () => {
    const mine: Group[] = (await call(as.admin, 'GET', '/search/groups?term=cohrt')).json();
    expect(mine.map((g) => g._id)).toContain(cohort);
    expect(mine.map((g) => g._id)).not.toContain(otherCohort);
    const all: Group[] = (await call(as.super, 'GET', '/search/groups?term=Cohort')).json();
    expect(all.map((g) => g._id)).toEqual(expect.arrayContaining([cohort, otherCohort]));
    expect((await call(as.admin, 'GET', '/search/groups?term=%25%25%25')).json()).toEqual([]);
  });

  it('refuses short terms and students', async () => {
    expect((await call(as.admin, 'GET', '/search/groups?term=co')).statusCode).toBe(400);
    expect((await call(as.admin, 'GET', '/search/groups')).statusCode).toBe(400);
    expect((await call(as.student, 'GET', '/search/groups?term=cohort')).statusCode).toBe(403);
  });
});

describe('DELETE /extension/groups/:id and /:parent/nested', () => {
  it('deletes a sub-group by an admin; never an organisation; not across organisations', async () => {
    const created = (
      await call(as.admin, 'POST', '/extension/groups', { name: 'Temp', description: JSON.stringify({ parent: orgA }) })
    ).json();
    expect((await call(as.student, 'DELETE', `/extension/groups/${created._id}`)).statusCode).toBe(403);
    expect((await call(as.outsider, 'DELETE', `/extension/groups/${created._id}`)).statusCode).toBe(404);
    expect((await call(as.keyOwner, 'DELETE', `/extension/groups/${orgA}`)).statusCode).toBe(422);
    expect((await call(as.admin, 'DELETE', `/extension/groups/${created._id}`)).statusCode).toBe(200);
    expect(await groupRow(created._id)).toBeUndefined();
  });

  it('deletes several sub-groups of the organisation, all or nothing', async () => {
    const make = async (name: string) =>
      (await call(as.admin, 'POST', '/extension/groups', { name, description: JSON.stringify({ parent: orgA }) })).json()
        ._id as string;
    const one = await make('Bulk one');
    const two = await make('Bulk two');
    const mixed = await call(as.admin, 'DELETE', `/extension/groups/${orgA}/nested`, [one, otherCohort]);
    expect(mixed.statusCode).toBe(404);
    expect(await groupRow(one)).toBeDefined();
    expect((await call(as.instructor, 'DELETE', `/extension/groups/${orgA}/nested`, [one])).statusCode).toBe(403);
    expect((await call(as.outsider, 'DELETE', `/extension/groups/${orgA}/nested`, [one])).statusCode).toBe(404);
    expect((await call(as.admin, 'DELETE', `/extension/groups/${orgA}/nested`, [one, two])).statusCode).toBe(200);
    expect(await groupRow(two)).toBeUndefined();
  });
});

describe('a demoted or removed actor', () => {
  it('loses group management at once, whatever the token says', async () => {
    const demoted = await insertUser(t.db, { role: 'ADMIN' });
    await addMember(t.db, orgA, demoted.id, 'ADMIN');
    const session = await signInAs(t, demoted.email, demoted.password);
    const body = { name: 'Before demotion', description: JSON.stringify({ parent: orgA }) };
    expect((await call(session, 'POST', '/extension/groups', body)).statusCode).toBe(200);
    await t.db.update(groupMember).set({ role: 'STUDENT' }).where(eq(groupMember.userId, demoted.id));
    await t.db.update(user).set({ role: 'STUDENT' }).where(eq(user.id, demoted.id));
    t.app.cache.clear();
    expect((await call(session, 'POST', '/extension/groups', { ...body, name: 'After demotion' })).statusCode).toBe(403);

    const removed = await insertUser(t.db, { role: 'ADMIN' });
    await addMember(t.db, orgA, removed.id, 'ADMIN');
    const removedSession = await signInAs(t, removed.email, removed.password);
    expect((await call(as.admin, 'DELETE', `/extension/groups/${orgA}/members`, [removed.id])).statusCode).toBe(200);
    expect((await call(removedSession, 'POST', '/extension/groups', { ...body, name: 'After removal' })).statusCode).toBe(401);
  });
});

describe('an inactive organisation', () => {
  it('refuses its key owner changes (422) but lets the provider reactivate it', async () => {
    expect((await call(as.super, 'PATCH', `/extension/groups/${orgB}`, { inactive: true })).statusCode).toBe(200);
    const refused = await call(as.outsider, 'PATCH', `/extension/groups/${orgB}`, { name: 'Beta Renamed' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('ORGANIZATION_INACTIVE');
    const createRefused = await call(as.outsider, 'POST', '/extension/groups', {
      name: 'Late',
      description: JSON.stringify({ parent: orgB }),
    });
    expect(createRefused.statusCode).toBe(422);
    expect((await call(as.super, 'PATCH', `/extension/groups/${orgB}`, { inactive: false })).statusCode).toBe(200);
    expect((await groupRow(orgB))?.name).toBe('Beta College');
  });
});
