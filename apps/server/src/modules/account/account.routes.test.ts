import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Role } from '@patientsim/domain/roles/roles';
import { user } from '../../db/schema/auth.js';
import { groupMember } from '../../db/schema/groups.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { addMember, insertGroup, insertUser, signInNewMember, TEST_PASSWORD } from '../../../test/fixtures.js';
import { csvCell, toCsv } from '../../lib/csv.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

/** A signed-in member with `role` of `orgId`, or of an organisation of their own. */
async function signInMember(role: Role, orgId?: string) {
  return signInNewMember(t, orgId ?? (await insertGroup(t.db, { seats: 25 })), { role });
}

/** An organisation whose key owner is one of its admins. */
async function insertOrganisationWithKeyOwner() {
  const keyOwner = await insertUser(t.db, { role: 'ADMIN' });
  const orgId = await insertGroup(t.db, { seats: 25, ownerId: keyOwner.id });
  await addMember(t.db, orgId, keyOwner.id, 'ADMIN');
  return { orgId, keyOwner };
}

describe('PATCH /users/{id}', () => {
  it('saves the changed names, trimmed', async () => {
    const { client, userId } = await signInMember('STUDENT');
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
    const orgId = await insertGroup(t.db, { seats: 25 });
    const { client, userId } = await signInMember('ADMIN', orgId);
    const other = await signInMember('STUDENT', orgId);
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
    const { client, userId } = await signInMember('STUDENT');
    const changed = await client.request({
      method: 'PATCH',
      url: `/api/users/users/${userId}`,
      payload: { email: 'Moved.Student@Example.test', currentPassword: TEST_PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ email: 'moved.student@example.test', email_verified: false, emailChanged: true });
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(401);
    const mail = await vi.waitFor(() => {
      const found = t.outbox.find((m) => m.to === 'moved.student@example.test');
      if (!found) throw new Error('no mail yet');
      return found;
    });
    expect(mail.text).toContain('/api/auth/verify-email?token=');
    const again = createClient(t.app, { ip: '10.77.0.1' });
    expect(
      (await again.post('/api/users/auth/sign-in', { email: 'moved.student@example.test', password: TEST_PASSWORD })).statusCode,
    ).toBe(200);
    expect((await again.post('/api/users/auth/token')).json().idTokenPayload.email_verified).toBe(false);
  });
  it('writes nothing of a save whose address change fails: the names stay as they were', async () => {
    const { client, userId } = await signInMember('STUDENT');
    const [before] = await t.db.select().from(user).where(eq(user.id, userId));
    // The database refuses this one address, as a crash between two statements would stop the save.
    await t.db.execute(
      sql.raw(`create function refuse_test_address() returns trigger language plpgsql as $$
        begin
          if new.email = 'refused@example.test' then raise exception 'refused for the test'; end if;
          return new;
        end $$`),
    );
    await t.db.execute(
      sql.raw('create trigger refuse_test_address before update on "user" for each row execute function refuse_test_address()'),
    );
    try {
      const response = await client.request({
        method: 'PATCH',
        url: `/api/users/users/${userId}`,
        payload: { given_name: 'Halfway', email: 'refused@example.test', currentPassword: TEST_PASSWORD },
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await t.db.execute(sql.raw('drop trigger refuse_test_address on "user"'));
      await t.db.execute(sql.raw('drop function refuse_test_address()'));
    }
    const [after] = await t.db.select().from(user).where(eq(user.id, userId));
    expect(after).toMatchObject({ givenName: before?.givenName, email: before?.email });
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(200);
  });
});

describe('POST /account/change-password', () => {
  it('checks the old password and the policy, ends other sessions, and the new one works', async () => {
    const earlier = await signInMember('USER');
    const { client } = await signInAs(t, earlier.email, TEST_PASSWORD);
    expect((await client.post('/api/users/account/change-password', { oldPassword: '', newPassword: 'x' })).statusCode).toBe(400);
    const wrongOld = await client.post('/api/users/account/change-password', {
      oldPassword: 'Wrong-Pass-1',
      newPassword: 'Fresh-Pass-2027',
    });
    expect(wrongOld.statusCode).toBe(401);
    const weak = await client.post('/api/users/account/change-password', { oldPassword: TEST_PASSWORD, newPassword: 'weak' });
    expect(weak.json().code).toBe('invalid_password');
    const done = await client.post('/api/users/account/change-password', {
      oldPassword: TEST_PASSWORD,
      newPassword: 'Fresh-Pass-2027',
    });
    expect(done.statusCode).toBe(200);
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(200);
    expect((await earlier.client.post('/api/users/auth/token')).statusCode).toBe(401);
    const fresh = createClient(t.app, { ip: '10.78.0.1' });
    expect((await fresh.post('/api/users/auth/sign-in', { email: earlier.email, password: 'Fresh-Pass-2027' })).statusCode).toBe(
      200,
    );
  });

  it("refuses a bearer token whose session cookie is someone else's", async () => {
    const a = await signInMember('ADMIN');
    const b = await signInMember('ADMIN');
    a.client.setBearer(b.idToken);
    const response = await a.client.post('/api/users/account/change-password', {
      oldPassword: TEST_PASSWORD,
      newPassword: 'Fresh-Pass-2027',
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('leaving and removing members', () => {
  it('lets a member leave (archived), and refuses the key owner', async () => {
    const { orgId, keyOwner } = await insertOrganisationWithKeyOwner();
    const { client, userId } = await signInMember('STUDENT', orgId);
    const left = await client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${orgId}/members`,
      payload: [userId],
    });
    expect(left.statusCode).toBe(200);
    const [membership] = await t.db
      .select()
      .from(groupMember)
      .where(and(eq(groupMember.userId, userId), eq(groupMember.groupId, orgId)));
    expect(membership?.removedAt).toBeInstanceOf(Date);

    const owner = await signInAs(t, keyOwner.email, keyOwner.password);
    const refused = await owner.client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${orgId}/members`,
      payload: [owner.userId],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'KEY_OWNER_CANNOT_LEAVE',
      message: "You can't leave an organization you are a key owner of",
    });
  });

  it('refuses instructors removing others, and other organisations', async () => {
    const orgId = await insertGroup(t.db, { seats: 25 });
    const admin = await signInMember('ADMIN', orgId);
    const instructor = await signInMember('USER', orgId);
    const removal = await instructor.client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${orgId}/members`,
      payload: [admin.userId],
    });
    expect(removal.statusCode).toBe(403);
    const outsider = await signInMember('ADMIN');
    const foreign = await outsider.client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${orgId}/members`,
      payload: [admin.userId],
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await admin.client.request({ method: 'DELETE', url: `/api/users/extension/groups/${orgId}/members`, payload: [] }))
        .statusCode,
    ).toBe(400);
  });

  it('answers the key owner to members only', async () => {
    const { orgId, keyOwner } = await insertOrganisationWithKeyOwner();
    const owner = await signInAs(t, keyOwner.email, keyOwner.password);
    const response = await owner.client.get(`/api/users/extension/groups/${orgId}/key-owner`);
    expect(response.json()).toMatchObject({ user_id: keyOwner.id, email: keyOwner.email });
    const outsider = await signInMember('ADMIN');
    expect((await outsider.client.get(`/api/users/extension/groups/${orgId}/key-owner`)).statusCode).toBe(404);
  });
});

describe('scenario summary', () => {
  it('gives a super admin in a dev organisation a CSV, and refuses others', async () => {
    const provider = await insertGroup(t.db, { seats: 100, dev: true });
    const { client } = await signInMember('SUPER_ADMIN', provider);
    const response = await client.post('/api/users/account/scenario-summary?showAllOrgs=true&showAllUsers=true');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain('summary.csv');
    expect(response.body.split('\r\n')[0]).toBe('email,given_name,family_name,scenario_id,scenario_name,plays,last_played');
    const admin = await signInMember('ADMIN');
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

describe('GET /support-contact', () => {
  it('answers where to reach the provider to anyone signed in, an account without an organisation included', async () => {
    const lonely = await insertUser(t.db, { role: 'STUDENT' });
    const { client } = await signInAs(t, lonely.email, lonely.password);
    const response = await client.get('/api/users/support-contact');
    expect(response.statusCode).toBe(200);
    // SUPPORT_EMAIL unset: the address of MAIL_FROM's default.
    expect(response.json()).toEqual({ email: 'no-reply@localhost' });
  });

  it('refuses no token and an ended session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/users/support-contact' })).statusCode).toBe(401);
    const { client } = await signInMember('STUDENT');
    expect((await client.post('/api/users/auth/sign-out')).statusCode).toBe(200);
    const ended = await client.get('/api/users/support-contact');
    expect(ended.statusCode).toBe(401);
    expect(ended.json().code).toBe('SESSION_ENDED');
  });
});
