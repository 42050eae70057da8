import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import type { createClient } from '../../../test/client.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { addMember, insertGroup, insertUser, TEST_PASSWORD, viewingAs } from '../../../test/fixtures.js';

/** requireOrgPermission, through the two group routes that use it. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

async function organisation({ inactive = false } = {}) {
  const orgId = await insertGroup(t.db, { name: `Org ${newId()}`, inactive });
  const classId = await insertGroup(t.db, { name: `${orgId.slice(0, 4)}::Class`, parentId: orgId });
  const people = {} as Record<'admin' | 'instructor' | 'student', Awaited<ReturnType<typeof insertUser>>>;
  for (const [key, role] of [
    ['admin', 'ADMIN'],
    ['instructor', 'USER'],
    ['student', 'STUDENT'],
  ] as const) {
    people[key] = await insertUser(t.db, { role });
    await addMember(t.db, orgId, people[key].id, role);
  }
  await addMember(t.db, classId, people.student.id, 'STUDENT');
  return { orgId, classId, ...people };
}

const remove = (client: ReturnType<typeof createClient>, groupId: string, userIds: string[]) =>
  client.request({ method: 'DELETE', url: `/api/users/extension/groups/${groupId}/members`, payload: userIds });

describe('requireOrgPermission', () => {
  it('takes the role in the organisation of the named group, sub-groups included', async () => {
    const org = await organisation();
    const instructor = await signInAs(t, org.instructor.email, TEST_PASSWORD);
    expect((await remove(instructor.client, org.classId, [org.student.id])).statusCode).toBe(403);
    const admin = await signInAs(t, org.admin.email, TEST_PASSWORD);
    expect((await remove(admin.client, org.classId, [org.student.id])).statusCode).toBe(200);
  });

  it('answers 404 to a member of another organisation, and lets a super admin in anywhere', async () => {
    const org = await organisation();
    const other = await organisation();
    const outsider = await signInAs(t, other.admin.email, TEST_PASSWORD);
    const refused = await remove(outsider.client, org.orgId, [org.student.id]);
    expect(refused.statusCode).toBe(404);
    expect((await outsider.client.get(`/api/users/extension/groups/${org.orgId}/key-owner`)).statusCode).toBe(404);
    expect((await outsider.client.get(`/api/users/extension/groups/unknown-${newId()}/key-owner`)).statusCode).toBe(404);
    const superAdmin = await insertUser(t.db, { role: 'SUPER_ADMIN' });
    const provider = await signInAs(t, superAdmin.email, TEST_PASSWORD);
    expect((await remove(provider.client, org.orgId, [org.student.id])).statusCode).toBe(200);
  });

  it('refuses changes in an inactive organisation, but not leaving it', async () => {
    const org = await organisation({ inactive: true });
    const admin = await signInAs(t, org.admin.email, TEST_PASSWORD);
    const removal = await remove(admin.client, org.orgId, [org.student.id]);
    expect(removal.statusCode).toBe(422);
    expect(removal.json().code).toBe('ORGANIZATION_INACTIVE');
    const student = await signInAs(t, org.student.email, TEST_PASSWORD);
    expect((await remove(student.client, org.orgId, [org.student.id])).statusCode).toBe(200);
  });

  it('refuses writes while a super admin views the product as a member, and allows reads', async () => {
    const org = await organisation();
    const superAdmin = await insertUser(t.db, { role: 'SUPER_ADMIN' });
    const provider = await signInAs(t, superAdmin.email, TEST_PASSWORD);
    const viewing = await viewingAs(t, { userId: org.admin.id, viewer: provider, ip: '10.96.0.1' });
    expect((await viewing.get(`/api/users/extension/groups/${org.orgId}`)).statusCode).toBe(200);
    const write = await remove(viewing, org.orgId, [org.student.id]);
    expect(write.statusCode).toBe(403);
    expect(write.json().code).toBe('VIEW_AS_READ_ONLY');
  });
});
