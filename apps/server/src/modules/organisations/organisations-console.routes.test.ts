import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrganisationsPage } from '@patientsim/domain/groups/group-management.schemas';
import { type Group, parseGroupMetadata, prefixSubgroupName } from '@patientsim/domain/groups/group.schemas';
import { auditEvent } from '../../db/schema/audit.js';
import { group } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient, type Client } from '../../../test/client.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { addMember, insertGroup, insertUser, signInNewMember, viewingAs } from '../../../test/fixtures.js';

type Session = Awaited<ReturnType<typeof signInAs>>;

/**
 * The provider's console over organisations: the list, the settings only the provider changes
 * (seats, product type, flags, status, key owner), and a new organisation with its key owner.
 */
let t: TestApp;
let orgA: string;
let keyOwnerId: string;
let keyOwnerSession: Session;
let provider: Session;
const staff = {} as Record<'ADMIN' | 'USER' | 'STUDENT', Session>;

const call = (session: Session | Client, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
  ('client' in session ? session.client : session).request({
    method,
    url: `/api/users${url}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const metadataOf = (row: Group) => parseGroupMetadata(row);
const groupRow = async (id: string) => (await t.db.select().from(group).where(eq(group.id, id)))[0];
const auditOf = (targetId: string, action: string) =>
  t.db
    .select()
    .from(auditEvent)
    .where(and(eq(auditEvent.targetId, targetId), eq(auditEvent.action, action)));

beforeAll(async () => {
  t = await buildTestApp();
  const keyOwner = await insertUser(t.db, { role: 'ADMIN' });
  keyOwnerId = keyOwner.id;
  orgA = await insertGroup(t.db, { name: 'Console Alpha Academy', seats: 10, ownerId: keyOwner.id });
  await addMember(t.db, orgA, keyOwner.id, 'ADMIN');
  keyOwnerSession = await signInAs(t, keyOwner.email, keyOwner.password);
  await insertGroup(t.db, { name: prefixSubgroupName(orgA, 'Console Cohort'), parentId: orgA });
  for (let i = 0; i < 4; i += 1) await insertGroup(t.db, { name: `Console Zeta ${i}`, seats: i });
  await insertGroup(t.db, { name: 'Console 100% Wild_card', seats: 1 });
  for (const role of ['ADMIN', 'USER', 'STUDENT'] as const) staff[role] = await signInNewMember(t, orgA, { role });
  const providerOrg = await insertGroup(t.db, { name: 'Console Provider', seats: 10 });
  provider = await signInNewMember(t, providerOrg, { role: 'SUPER_ADMIN' });
});

describe('GET /organizations', () => {
  const list = async (query: string) => {
    const response = await call(provider, 'GET', `/organizations${query}`);
    expect(response.statusCode, query).toBe(200);
    return response.json<OrganisationsPage>();
  };

  it('pages every organisation (no sub-groups) by name, with seats, members, product type and status', async () => {
    const all = await list('?pageSize=100');
    const names = all.items.map((row) => row.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(names).toContain('Console Alpha Academy');
    expect(names.some((name) => name.includes('::'))).toBe(false);
    expect(all.total).toBe(all.items.length);
    const alpha = all.items.find((row) => row._id === orgA);
    expect(alpha && metadataOf(alpha)).toMatchObject({ seats: 10, memberCount: 4, productType: 'EMS', inactive: false });

    const first = await list('?pageSize=2&page=0');
    const second = await list('?pageSize=2&page=1');
    expect(first).toMatchObject({ total: all.total, page: 0, pageSize: 2 });
    expect([...first.items, ...second.items].map((row) => row._id)).toEqual(all.items.slice(0, 4).map((row) => row._id));
  });

  it('searches names (wildcards taken literally)', async () => {
    expect((await list('?search=zeta')).items.map((row) => row.name)).toEqual([
      'Console Zeta 0',
      'Console Zeta 1',
      'Console Zeta 2',
      'Console Zeta 3',
    ]);
    expect((await list(`?search=${encodeURIComponent('0% w')}`)).items.map((row) => row.name)).toEqual([
      'Console 100% Wild_card',
    ]);
    expect((await list(`?search=${encodeURIComponent('e_z')}`)).total).toBe(0);
    expect(await list('?search=')).toMatchObject({ page: 0 });
  });

  it('refuses bad input with 400', async () => {
    for (const query of ['?search=ab', '?pageSize=0', '?pageSize=501', '?page=-1', '?search=abc%00', '?page=x']) {
      const response = await call(provider, 'GET', `/organizations${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses every other role (403), no token (401), and the provider viewing as another user (403)', async () => {
    for (const session of Object.values(staff)) expect((await call(session, 'GET', '/organizations')).statusCode).toBe(403);
    expect((await call(createClient(t.app), 'GET', '/organizations')).statusCode).toBe(401);
    const colleague = await insertUser(t.db, { role: 'SUPER_ADMIN' });
    const viewing = await viewingAs(t, { userId: colleague.id, viewer: provider });
    expect((await call(viewing, 'GET', '/organizations')).statusCode).toBe(403);
  });
});

describe('PATCH /extension/groups/:id by the provider (organisation details)', () => {
  it('changes seats, product type, the flags and the status, each audited with before and after', async () => {
    const changes = { seats: 12, productType: 'NURSING', dev: true, testing: true, debug: true, ai: true, inactive: true };
    const response = await call(provider, 'PATCH', `/extension/groups/${orgA}`, changes);
    expect(response.statusCode).toBe(200);
    expect(metadataOf(response.json<Group>())).toMatchObject(changes);
    expect(await groupRow(orgA)).toMatchObject(changes);
    const [event] = await auditOf(orgA, 'group.update');
    expect(event).toMatchObject({ actorId: provider.userId, orgId: orgA });
    expect((event?.details as { before: Record<string, unknown> }).before).toMatchObject({ seats: 10, inactive: false });
    const back = { seats: 10, productType: 'EMS', dev: false, testing: false, debug: false, ai: false, inactive: false };
    expect((await call(provider, 'PATCH', `/extension/groups/${orgA}`, back)).statusCode).toBe(200);
  });

  it('refuses seats that are not whole numbers or out of range, and unknown fields (400), changing nothing', async () => {
    for (const payload of [
      { seats: 1.5 },
      { seats: -1 },
      { seats: '3' },
      { productType: 'DENTAL' },
      { flag: true },
      { ai: 'yes' },
    ]) {
      const response = await call(provider, 'PATCH', `/extension/groups/${orgA}`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await groupRow(orgA))?.seats).toBe(10);
  });

  it('refuses the settings to the organisation’s own admins and key owner (403)', async () => {
    for (const session of [staff.ADMIN, keyOwnerSession]) {
      const response = await call(session, 'PATCH', `/extension/groups/${orgA}`, { seats: 99 });
      expect(response.statusCode).toBe(403);
    }
    expect((await groupRow(orgA))?.seats).toBe(10);
  });

  it('changes the key owner to an admin of the organisation only', async () => {
    const student = await call(provider, 'PATCH', `/extension/groups/${orgA}`, { ownerId: staff.STUDENT.userId });
    expect(student.statusCode).toBe(422);
    expect(student.json().code).toBe('KEY_OWNER_MUST_BE_ADMIN');
    const stranger = await insertUser(t.db, { role: 'ADMIN' });
    expect((await call(provider, 'PATCH', `/extension/groups/${orgA}`, { ownerId: stranger.id })).statusCode).toBe(404);
    const changed = await call(provider, 'PATCH', `/extension/groups/${orgA}`, { ownerId: staff.ADMIN.userId });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<Group>().owner).toBe(staff.ADMIN.userId);
    expect(await auditOf(orgA, 'group.change-owner')).toHaveLength(1);
    expect((await call(provider, 'PATCH', `/extension/groups/${orgA}`, { ownerId: keyOwnerId })).statusCode).toBe(200);
  });
});

describe('POST /invitations/invite with a new organisation (create an organisation with its key owner)', () => {
  const create = (users: Array<{ email: string; role?: string }>, org: Record<string, unknown>) =>
    call(provider, 'POST', '/invitations/invite', { users, org, throughSubscription: false });

  it('creates it with seats 0: the key owner’s invitation takes no seat, anyone else’s does', async () => {
    const response = await create([{ email: 'first-owner@console.test' }], {
      name: 'Console New Service',
      productType: 'MILITARY',
    });
    expect(response.statusCode).toBe(200);
    const [result] = response.json<Array<{ createdOrg: Group; outcome: string }>>();
    expect(result?.outcome).toBe('sent');
    const orgId = result?.createdOrg._id ?? '';
    expect(metadataOf(result?.createdOrg as Group)).toMatchObject({ seats: 0, productType: 'MILITARY', ownerId: null });
    const [invite] = await t.db.select().from(invitation).where(eq(invitation.orgId, orgId));
    expect(invite).toMatchObject({ email: 'first-owner@console.test', role: 'ADMIN' });
    expect(await auditOf(orgId, 'organisation.create')).toHaveLength(1);

    const withAnother = await create([{ email: 'second-owner@console.test' }, { email: 'extra@console.test' }], {
      name: 'Console Crowded Service',
      productType: 'EMS',
    });
    expect(withAnother.statusCode).toBe(422);
    expect(withAnother.json().code).toBe('SEATS_EXCEEDED');
    expect(await t.db.select().from(group).where(eq(group.name, 'Console Crowded Service'))).toHaveLength(0);
  });

  it('names the invited person key owner when they accept (an admin joining an organisation without one)', async () => {
    const email = 'later-owner@console.test';
    const response = await create([{ email }], { name: 'Console Later Owner', productType: 'EMS', seats: 3 });
    const orgId = response.json<Array<{ createdOrg: Group }>>()[0]?.createdOrg._id ?? '';
    expect((await groupRow(orgId))?.ownerId).toBeNull();
    const person = await insertUser(t.db, { email, role: 'STUDENT' });
    const session = await signInAs(t, person.email, person.password);
    const [invite] = await t.db.select().from(invitation).where(eq(invitation.orgId, orgId));
    const accepted = await call(session, 'POST', '/invitations/finish-invite', { inviteId: invite?.id, email });
    expect(accepted.statusCode).toBe(200);
    expect((await groupRow(orgId))?.ownerId).toBe(person.id);

    // A second admin joining later leaves the key owner as it is.
    const next = await insertUser(t.db, { email: 'next-admin@console.test' });
    expect(
      (await call(provider, 'POST', '/invitations/invite', { users: [{ email: next.email, role: 'ADMIN' }], org: orgId }))
        .statusCode,
    ).toBe(200);
    const nextSession = await signInAs(t, next.email, next.password);
    const [nextInvite] = await t.db
      .select()
      .from(invitation)
      .where(and(eq(invitation.orgId, orgId), eq(invitation.email, next.email)));
    expect(
      (await call(nextSession, 'POST', '/invitations/finish-invite', { inviteId: nextInvite?.id, email: next.email })).statusCode,
    ).toBe(200);
    expect((await groupRow(orgId))?.ownerId).toBe(person.id);
  });

  it('refuses a bad description (400) and anyone but the provider (403), creating nothing', async () => {
    for (const org of [
      { name: '', productType: 'EMS' },
      { name: 'x'.repeat(41), productType: 'EMS' },
      { name: 'Console Bad', productType: 'DENTAL' },
      { name: 'Console Bad', productType: 'EMS', seats: 2.5 },
      { name: 'Console Bad', productType: 'EMS', seats: -1 },
    ]) {
      const response = await create([{ email: 'bad@console.test' }], org);
      expect(response.statusCode, JSON.stringify(org)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
    for (const session of Object.values(staff)) {
      const response = await call(session, 'POST', '/invitations/invite', {
        users: [{ email: 'bad@console.test' }],
        org: { name: 'Console Bad', productType: 'EMS' },
      });
      expect(response.statusCode).toBe(403);
    }
    expect(await t.db.select().from(group).where(eq(group.name, 'Console Bad'))).toHaveLength(0);
  });
});
