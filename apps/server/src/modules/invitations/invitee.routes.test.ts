import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@patientsim/domain/roles/roles';
import { groupMember } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';
import { hashToken, newToken } from '../../lib/ids.js';
import { buildInvitation, type InvitationOverrides } from '../../seed/builders.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { insertGroup, insertMember, signInNewMember } from '../../../test/fixtures.js';

const INVITING_ORG_NAME = 'Lakeside Nursing College';

let t: TestApp;
/** The organisation every invitation of this file is to. */
let invitingOrg: string;
beforeAll(async () => {
  t = await buildTestApp();
  invitingOrg = await insertGroup(t.db, { name: INVITING_ORG_NAME, seats: 10, productType: 'NURSING' });
});

/** Accounts that invitations can be for: each a member of an organisation of their own. */
const insertAccount = async (role: Role) => insertMember(t.db, await insertGroup(t.db, { seats: 10 }), { role });
const signInAccount = async (role: Role) => signInNewMember(t, await insertGroup(t.db, { seats: 10 }), { role });

/** A pending invitation to the inviting organisation, with the token its e-mail would carry. */
async function inviteWithToken(email: string, overrides: Partial<InvitationOverrides> = {}) {
  const token = newToken();
  const row = buildInvitation({ orgId: invitingOrg, email, tokenHash: hashToken(token), ...overrides });
  await t.db.insert(invitation).values(row);
  return { id: row.id, token };
}

describe('listing my invitations', () => {
  it("lists an instructor's pending invitation to another organisation, by user and by address", async () => {
    const { client, userId, email } = await signInAccount('USER');
    await inviteWithToken(email, { role: 'USER' });
    const byUser = await client.get(`/api/users/invites/user/${userId}`);
    expect(byUser.statusCode).toBe(200);
    const invites = byUser.json().data.invites;
    expect(invites).toHaveLength(1);
    expect(invites[0]).toMatchObject({
      org_id: invitingOrg,
      org_name: INVITING_ORG_NAME,
      email,
      dismissed: false,
      declined: false,
    });
    const byEmail = await client.post('/api/users/invites/pending', { email });
    expect(byEmail.json().data.pending).toHaveLength(1);
  });

  it("refuses someone else's invitations", async () => {
    const instructor = await signInAccount('USER');
    await inviteWithToken(instructor.email, { role: 'USER' });
    const { client } = await signInAccount('STUDENT');
    expect((await client.get(`/api/users/invites/user/${instructor.userId}`)).statusCode).toBe(404);
    expect((await client.post('/api/users/invites/pending', { email: instructor.email })).statusCode).toBe(404);
    expect((await createClient(t.app).post('/api/users/invites/pending', { email: instructor.email })).statusCode).toBe(401);
  });
});

describe('accepting', () => {
  it('joins the organisation, makes it active, and cannot be replayed', async () => {
    const { client, userId, email } = await signInAccount('USER');
    await inviteWithToken(email, { role: 'USER' });
    const [pending] = (await client.get(`/api/users/invites/user/${userId}`)).json().data.invites;
    const accepted = await client.post('/api/users/invitations/finish-invite', { inviteId: pending._id, email });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ ok: true, orgId: invitingOrg });
    const renewed = (await client.post('/api/users/auth/token')).json().idTokenPayload;
    expect(renewed.org).toBe(invitingOrg);
    expect(renewed.groups).toContain(invitingOrg);
    expect(renewed.app_metadata.orgSpecificRoles[invitingOrg]).toBe('USER');
    const replay = await client.post('/api/users/invitations/finish-invite', { inviteId: pending._id, email });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('INVITATION_INVALID');
  });

  it('refuses an invitation addressed to someone else', async () => {
    const { id } = await inviteWithToken('someone.else@example.test');
    const { client, email } = await signInAccount('STUDENT');
    expect((await client.post('/api/users/invitations/finish-invite', { inviteId: id, email })).statusCode).toBe(404);
    expect((await client.post('/api/users/invitations/decline', { inviteId: id })).statusCode).toBe(404);
  });

  it('accepts with the e-mailed token for an existing account; mismatched, expired and replayed tokens are refused', async () => {
    const admin = await insertAccount('ADMIN');
    const student = await insertAccount('STUDENT');
    const { token } = await inviteWithToken(admin.email, { role: 'USER' });
    const anonymous = createClient(t.app);
    const described = await anonymous.get(`/api/users/invitations/describe?token=${token}`);
    expect(described.json()).toEqual({ email: admin.email, orgName: INVITING_ORG_NAME, hasAccount: true });
    const mismatch = await anonymous.post(
      '/api/users/invitations/finish',
      { email: student.email },
      { authorization: `Bearer ${token}` },
    );
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().code).toBe('INVITATION_EMAIL_MISMATCH');
    expect((await anonymous.post('/api/users/invitations/finish', { email: admin.email })).statusCode).toBe(401);
    const done = await anonymous.post(
      '/api/users/invitations/finish',
      { email: admin.email },
      { authorization: `Bearer ${token}` },
    );
    expect(done.statusCode).toBe(200);
    const memberships = await t.db
      .select()
      .from(groupMember)
      .where(and(eq(groupMember.groupId, invitingOrg), eq(groupMember.userId, admin.id)));
    expect(memberships[0]?.role).toBe('USER');
    expect(
      (await anonymous.post('/api/users/invitations/finish', { email: admin.email }, { authorization: `Bearer ${token}` }))
        .statusCode,
    ).toBe(400);

    const owner = await insertAccount('ADMIN');
    const expired = await inviteWithToken(owner.email, { expiresAt: new Date(Date.now() - 1000) });
    expect(
      (
        await anonymous.post(
          '/api/users/invitations/finish',
          { email: owner.email },
          { authorization: `Bearer ${expired.token}` },
        )
      ).statusCode,
    ).toBe(400);
    expect((await anonymous.get(`/api/users/invitations/describe?token=${expired.token}`)).statusCode).toBe(400);
  });
});

describe('declining and dismissing', () => {
  it('hides the invitation afterwards', async () => {
    const { client, userId, email } = await signInAccount('ADMIN');
    const first = await inviteWithToken(email);
    const second = await inviteWithToken(email);
    expect((await client.get(`/api/users/invites/user/${userId}`)).json().data.invites).toHaveLength(2);
    expect((await client.post(`/api/users/invites/dismiss/${first.id}`)).statusCode).toBe(200);
    expect((await client.post('/api/users/invitations/decline', { inviteId: second.id })).statusCode).toBe(200);
    expect((await client.get(`/api/users/invites/user/${userId}`)).json().data.invites).toHaveLength(0);
    const [row] = await t.db.select().from(invitation).where(eq(invitation.id, second.id));
    expect(row?.status).toBe('declined');
    expect((await client.post(`/api/users/invites/dismiss/${first.id}`)).statusCode).toBe(400);
  });
});
