import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { user } from '../../db/schema/auth.js';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { insertGroup, insertMember } from '../../../test/fixtures.js';

const KEY = 'integration-key-for-tests-0123456789';
let t: TestApp;
/** The nursing school the roster provisions people into. */
let northgate: string;
/** The address of an account that already exists (the school's admin). */
let takenEmail: string;
beforeAll(async () => {
  t = await buildTestApp({ env: { INTEGRATION_KEY: KEY } });
  northgate = await insertGroup(t.db, { name: 'Northgate Nursing School', productType: 'NURSING', seats: 10 });
  takenEmail = (await insertMember(t.db, northgate, { role: 'ADMIN', productType: 'NURSING' })).email;
});

const person = () => ({
  email: 'Roster.Student@School.test',
  given_name: 'Rosa',
  family_name: 'Ster',
  orgId: northgate,
  role: 'STUDENT',
});

describe('provisioning', () => {
  it('needs the integration key', async () => {
    const client = createClient(t.app);
    expect((await client.post('/api/users/integrations/provision', person())).statusCode).toBe(401);
    expect(
      (
        await client.post('/api/users/integrations/provision', person(), {
          'x-integration-key': 'wrong-key-of-the-same-length-000000',
        })
      ).statusCode,
    ).toBe(401);
  });

  it('refuses bad input, unknown organisations and super admin roles', async () => {
    const client = createClient(t.app);
    const headers = { 'x-integration-key': KEY };
    expect((await client.post('/api/users/integrations/provision', { ...person(), email: 'nope' }, headers)).statusCode).toBe(
      400,
    );
    expect(
      (await client.post('/api/users/integrations/provision', { ...person(), role: 'SUPER_ADMIN' }, headers)).statusCode,
    ).toBe(400);
    expect(
      (await client.post('/api/users/integrations/provision', { ...person(), orgId: 'no-such-org' }, headers)).statusCode,
    ).toBe(404);
    const taken = await client.post('/api/users/integrations/provision', { ...person(), email: takenEmail }, headers);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('EMAIL_TAKEN');
  });

  it('returns a single-use choose-password link that creates the account and signs in', async () => {
    const client = createClient(t.app);
    const provisioned = await client.post('/api/users/integrations/provision', person(), { 'x-integration-key': KEY });
    expect(provisioned.statusCode).toBe(200);
    const link = new URL(provisioned.json().link);
    expect(link.origin + link.pathname).toBe(`${TEST_PUBLIC_URL}/auth/choose-password`);
    const token = link.searchParams.get('token') ?? '';

    const described = await client.get(`/api/users/integrations/provisioning?token=${token}`);
    expect(described.json()).toEqual({ email: 'roster.student@school.test', given_name: 'Rosa', family_name: 'Ster' });

    const weak = await client.post('/api/users/integrations/add-user', { token, password: 'short' });
    expect(weak.json().code).toBe('invalid_password');

    const created = await client.post('/api/users/integrations/add-user', { token, password: 'Chosen-Pass-2026' });
    expect(created.statusCode).toBe(200);
    const body = created.json();
    expect(body.idTokenPayload).toMatchObject({
      email: 'roster.student@school.test',
      role: 'STUDENT',
      org: northgate,
      productType: 'NURSING',
    });
    expect(body.groupData.groups.map((g: { _id: string }) => g._id)).toEqual([northgate]);
    expect(body.groupData.activeGroups.map((g: { _id: string }) => g._id)).toEqual([northgate]);
    const [row] = await t.db.select().from(user).where(eq(user.email, 'roster.student@school.test'));
    expect(row?.emailVerified).toBe(true);
    // Signed in: the license comes next, through the usual token call.
    expect((await client.post('/api/users/auth/token')).json().code).toBe('LICENSE_NOT_ACCEPTED');

    const replay = await createClient(t.app).post('/api/users/integrations/add-user', { token, password: 'Chosen-Pass-2026' });
    expect(replay.statusCode).toBe(400);
    expect((await client.get(`/api/users/integrations/provisioning?token=${token}`)).statusCode).toBe(400);
  });
});
