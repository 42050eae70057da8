import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { user } from '../../db/schema/auth.js';
import { group, groupMember } from '../../db/schema/groups.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { signInDemo } from '../../../test/demo-client.js';
import { csvCell, toCsv } from '../../lib/csv.js';
import { DEMO_PASSWORD } from '../../seed/demo.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ seed: true });
});

const orgId = async (name: string) => (await t.db.select().from(group).where(eq(group.name, name)))[0]?.id ?? '';

describe('PATCH /users/{id}', () => {
  it('saves the changed names, trimmed', async () => {
    const { client, userId } = await signInDemo(t, 'student@demo.test');
    const response = await client.request({
      method: 'PATCH',
      url: `/api/users/users/${userId}`,
      payload: { given_name: '  Samira ' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ given_name: 'Samira', emailChanged: false });
    const [row] = await t.db.select().from(user).where(eq(user.id, userId));
    expect(row?.givenName).toBe('Samira');
  });

  it('refuses an empty change, unknown fields and another user', async () => {
    const { client, userId } = await signInDemo(t, 'admin@demo.test');
    const other = await signInDemo(t, 'student@demo.test');
    expect((await client.request({ method: 'PATCH', url: `/api/users/users/${userId}`, payload: {} })).statusCode).toBe(400);
    expect(
      (await client.request({ method: 'PATCH', url: `/api/users/users/${userId}`, payload: { role: 'SUPER_ADMIN' } })).statusCode,
    ).toBe(400);
    const foreign = await client.request({
      method: 'PATCH',
      url: `/api/users/users/${other.userId}`,
      payload: { given_name: 'Hacked' },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await t.db.select().from(user).where(eq(user.id, other.userId)))[0]?.givenName).not.toBe('Hacked');
  });

  it('an e-mail change needs verification: sessions end and the new address gets a link', async () => {
    const { client, userId } = await signInDemo(t, 'student2@demo.test');
    const changed = await client.request({
      method: 'PATCH',
      url: `/api/users/users/${userId}`,
      payload: { email: 'Student2.New@Demo.test', currentPassword: DEMO_PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ email: 'student2.new@demo.test', email_verified: false, emailChanged: true });
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(401);
    const mail = await vi.waitFor(() => {
      const found = t.outbox.find((m) => m.to === 'student2.new@demo.test');
      if (!found) throw new Error('no mail yet');
      return found;
    });
    expect(mail.text).toContain('/api/auth/verify-email?token=');
    const again = createClient(t.app, { ip: '10.77.0.1' });
    expect(
      (await again.post('/api/users/auth/sign-in', { email: 'student2.new@demo.test', password: DEMO_PASSWORD })).statusCode,
    ).toBe(200);
    expect((await again.post('/api/users/auth/token')).json().idTokenPayload.email_verified).toBe(false);
  });
});

describe('POST /account/change-password', () => {
  it('checks the old password and the policy, ends other sessions, and the new one works', async () => {
    const other = await signInDemo(t, 'multi@demo.test');
    const { client } = await signInDemo(t, 'multi@demo.test');
    expect((await client.post('/api/users/account/change-password', { oldPassword: '', newPassword: 'x' })).statusCode).toBe(400);
    const wrongOld = await client.post('/api/users/account/change-password', {
      oldPassword: 'Wrong-Pass-1',
      newPassword: 'Fresh-Pass-2027',
    });
    expect(wrongOld.statusCode).toBe(401);
    const weak = await client.post('/api/users/account/change-password', { oldPassword: DEMO_PASSWORD, newPassword: 'weak' });
    expect(weak.json().code).toBe('invalid_password');
    const done = await client.post('/api/users/account/change-password', {
      oldPassword: DEMO_PASSWORD,
      newPassword: 'Fresh-Pass-2027',
    });
    expect(done.statusCode).toBe(200);
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(200);
    expect((await other.client.post('/api/users/auth/token')).statusCode).toBe(401);
    const fresh = createClient(t.app, { ip: '10.78.0.1' });
    expect(
      (await fresh.post('/api/users/auth/sign-in', { email: 'multi@demo.test', password: 'Fresh-Pass-2027' })).statusCode,
    ).toBe(200);
  });

  it("refuses a bearer token whose session cookie is someone else's", async () => {
    const a = await signInDemo(t, 'nurse@demo.test');
    const b = await signInDemo(t, 'medic@demo.test');
    a.client.setBearer(b.idToken);
    const response = await a.client.post('/api/users/account/change-password', {
      oldPassword: DEMO_PASSWORD,
      newPassword: 'Fresh-Pass-2027',
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('leaving and removing members', () => {
  it('lets a member leave (archived), and refuses the key owner', async () => {
    const riverside = await orgId('Riverside EMS Academy');
    const { client, userId } = await signInDemo(t, 'student@demo.test');
    const left = await client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${riverside}/members`,
      payload: [userId],
    });
    expect(left.statusCode).toBe(200);
    const [membership] = await t.db
      .select()
      .from(groupMember)
      .where(and(eq(groupMember.userId, userId), eq(groupMember.groupId, riverside)));
    expect(membership?.removedAt).toBeInstanceOf(Date);

    const owner = await signInDemo(t, 'owner@demo.test');
    const refused = await owner.client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${riverside}/members`,
      payload: [owner.userId],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'KEY_OWNER_CANNOT_LEAVE',
      message: "You can't leave an organization you are a key owner of",
    });
  });

  it('refuses instructors removing others, and other organisations', async () => {
    const riverside = await orgId('Riverside EMS Academy');
    const admin = await signInDemo(t, 'admin@demo.test');
    const instructor = await signInDemo(t, 'instructor@demo.test');
    const removal = await instructor.client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${riverside}/members`,
      payload: [admin.userId],
    });
    expect(removal.statusCode).toBe(403);
    const nurse = await signInDemo(t, 'nurse@demo.test');
    const foreign = await nurse.client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${riverside}/members`,
      payload: [admin.userId],
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await admin.client.request({ method: 'DELETE', url: `/api/users/extension/groups/${riverside}/members`, payload: [] }))
        .statusCode,
    ).toBe(400);
  });

  it('answers the key owner to members only', async () => {
    const northgate = await orgId('Northgate Nursing School');
    const nurse = await signInDemo(t, 'nurse@demo.test');
    const response = await nurse.client.get(`/api/users/extension/groups/${northgate}/key-owner`);
    expect(response.json()).toMatchObject({ user_id: nurse.userId, email: 'nurse@demo.test' });
    const outsider = await signInDemo(t, 'medic@demo.test');
    expect((await outsider.client.get(`/api/users/extension/groups/${northgate}/key-owner`)).statusCode).toBe(404);
  });
});

describe('scenario summary', () => {
  it('gives a super admin in a dev organisation a CSV, and refuses others', async () => {
    const { client } = await signInDemo(t, 'super@demo.test');
    const response = await client.post('/api/users/account/scenario-summary?showAllOrgs=true&showAllUsers=true');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain('summary.csv');
    expect(response.body.split('\r\n')[0]).toBe('email,given_name,family_name,scenario_id,scenario_name,plays,last_played');
    const admin = await signInDemo(t, 'owner@demo.test');
    expect((await admin.client.post('/api/users/account/scenario-summary?showAllUsers=false')).statusCode).toBe(403);
    expect((await client.post('/api/users/account/scenario-summary?showAllUsers=maybe')).statusCode).toBe(400);
  });

  it('escapes cells that could start a spreadsheet formula', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('plain, text')).toBe('"plain, text"');
    expect(toCsv(['a'], [['1']])).toBe('a\r\n1\r\n');
  });
});
