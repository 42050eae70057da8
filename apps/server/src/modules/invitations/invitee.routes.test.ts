import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { group, groupMember } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';
import { hashToken, newId, newToken } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { signInDemo } from '../../../test/demo-client.js';

let t: TestApp;
let northgate: string;
let harbor: string;
beforeAll(async () => {
  t = await buildTestApp({ seed: true });
  const orgs = await t.db.select().from(group);
  northgate = orgs.find((g) => g.name === 'Northgate Nursing School')?.id ?? '';
  harbor = orgs.find((g) => g.name === 'Harbor Medic Unit')?.id ?? '';
});

async function inviteWithToken(email: string, orgId: string, overrides: Partial<typeof invitation.$inferInsert> = {}) {
  const token = newToken();
  const id = newId();
  await t.db.insert(invitation).values({
    id,
    orgId,
    email,
    role: 'STUDENT',
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + 86_400_000),
    ...overrides,
  });
  return { id, token };
}

describe('listing my invitations', () => {
  it("lists the instructor's pending invitation to Northgate, by user and by address", async () => {
    const { client, userId } = await signInDemo(t, 'instructor@demo.test');
    const byUser = await client.get(`/api/users/invites/user/${userId}`);
    expect(byUser.statusCode).toBe(200);
    const invites = byUser.json().data.invites;
    expect(invites).toHaveLength(1);
    expect(invites[0]).toMatchObject({
      org_id: northgate,
      org_name: 'Northgate Nursing School',
      email: 'instructor@demo.test',
      dismissed: false,
      declined: false,
    });
    const byEmail = await client.post('/api/users/invites/pending', { email: 'instructor@demo.test' });
    expect(byEmail.json().data.pending).toHaveLength(1);
  });

  it("refuses someone else's invitations", async () => {
    const { client } = await signInDemo(t, 'student@demo.test');
    const instructor = await signInDemo(t, 'instructor@demo.test');
    expect((await client.get(`/api/users/invites/user/${instructor.userId}`)).statusCode).toBe(404);
    expect((await client.post('/api/users/invites/pending', { email: 'instructor@demo.test' })).statusCode).toBe(404);
    expect((await createClient(t.app).post('/api/users/invites/pending', { email: 'instructor@demo.test' })).statusCode).toBe(
      401,
    );
  });
});

describe('accepting', () => {
  it('joins the organisation, makes it active, and cannot be replayed', async () => {
    const { client, userId } = await signInDemo(t, 'instructor@demo.test');
    const [pending] = (await client.get(`/api/users/invites/user/${userId}`)).json().data.invites;
    const accepted = await client.post('/api/users/invitations/finish-invite', {
      inviteId: pending._id,
      email: 'instructor@demo.test',
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ ok: true, orgId: northgate });
    const renewed = (await client.post('/api/users/auth/token')).json().idTokenPayload;
    expect(renewed.org).toBe(northgate);
    expect(renewed.groups).toContain(northgate);
    expect(renewed.app_metadata.orgSpecificRoles[northgate]).toBe('USER');
    const replay = await client.post('/api/users/invitations/finish-invite', {
      inviteId: pending._id,
      email: 'instructor@demo.test',
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('INVITATION_INVALID');
  });

  it('refuses an invitation addressed to someone else', async () => {
    const { id } = await inviteWithToken('someone.else@demo.test', harbor);
    const { client } = await signInDemo(t, 'student@demo.test');
    expect(
      (await client.post('/api/users/invitations/finish-invite', { inviteId: id, email: 'student@demo.test' })).statusCode,
    ).toBe(404);
    expect((await client.post('/api/users/invitations/decline', { inviteId: id })).statusCode).toBe(404);
  });

  it('accepts with the e-mailed token for an existing account; mismatched, expired and replayed tokens are refused', async () => {
    const { token } = await inviteWithToken('admin@demo.test', harbor, { role: 'USER' });
    const anonymous = createClient(t.app);
    const described = await anonymous.get(`/api/users/invitations/describe?token=${token}`);
    expect(described.json()).toEqual({ email: 'admin@demo.test', orgName: 'Harbor Medic Unit', hasAccount: true });
    const mismatch = await anonymous.post(
      '/api/users/invitations/finish',
      { email: 'student@demo.test' },
      { authorization: `Bearer ${token}` },
    );
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().code).toBe('INVITATION_EMAIL_MISMATCH');
    expect((await anonymous.post('/api/users/invitations/finish', { email: 'admin@demo.test' })).statusCode).toBe(401);
    const done = await anonymous.post(
      '/api/users/invitations/finish',
      { email: 'admin@demo.test' },
      { authorization: `Bearer ${token}` },
    );
    expect(done.statusCode).toBe(200);
    const admin = await signInDemo(t, 'admin@demo.test');
    const memberships = await t.db
      .select()
      .from(groupMember)
      .where(and(eq(groupMember.groupId, harbor), eq(groupMember.userId, admin.userId)));
    expect(memberships[0]?.role).toBe('USER');
    expect(
      (await anonymous.post('/api/users/invitations/finish', { email: 'admin@demo.test' }, { authorization: `Bearer ${token}` }))
        .statusCode,
    ).toBe(400);

    const expired = await inviteWithToken('owner@demo.test', harbor, { expiresAt: new Date(Date.now() - 1000) });
    expect(
      (
        await anonymous.post(
          '/api/users/invitations/finish',
          { email: 'owner@demo.test' },
          { authorization: `Bearer ${expired.token}` },
        )
      ).statusCode,
    ).toBe(400);
    expect((await anonymous.get(`/api/users/invitations/describe?token=${expired.token}`)).statusCode).toBe(400);
  });
});

describe('declining and dismissing', () => {
  it('hides the invitation afterwards', async () => {
    const first = await inviteWithToken('nurse@demo.test', harbor);
    const second = await inviteWithToken('nurse@demo.test', harbor);
    const { client, userId } = await signInDemo(t, 'nurse@demo.test');
    expect((await client.get(`/api/users/invites/user/${userId}`)).json().data.invites).toHaveLength(2);
    expect((await client.post(`/api/users/invites/dismiss/${first.id}`)).statusCode).toBe(200);
    expect((await client.post('/api/users/invitations/decline', { inviteId: second.id })).statusCode).toBe(200);
    expect((await client.get(`/api/users/invites/user/${userId}`)).json().data.invites).toHaveLength(0);
    const [row] = await t.db.select().from(invitation).where(eq(invitation.id, second.id));
    expect(row?.status).toBe('declined');
    expect((await client.post(`/api/users/invites/dismiss/${first.id}`)).statusCode).toBe(400);
  });
});
