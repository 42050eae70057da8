import { INVITATION_TOKEN_SECONDS } from '@patientsim/domain/common/constants';
import type { ProvisionBody } from '@patientsim/domain/account/provisioning.schemas';
import { findHolder, isVerifiedHolder, releaseUnverifiedClaim } from '../../identity/email-ownership.js';
import { endUserSessions, findSessionId } from '../../identity/sessions.js';
import { assertStrongPassword, hashPassword } from '../../identity/password.js';
import { audit } from '../../lib/audit.js';
import { AppError, assert } from '../../lib/errors.js';
import { hashToken, newId, newToken } from '../../lib/ids.js';
import { changeIdentity } from '../../lib/read-cache.js';
import { isSameSecret } from '../../lib/secrets.js';
import type { Services } from '../../plugins/app/services.js';
import { assertSeatsKept, hasFreeSeat, lockSeats } from '../invitations/seats.service.js';
import { countMembers, findGroupById, findGroupsOfUser, toWireGroup } from '../organisations/organisations.service.js';
import { buildProductClaims, createAccount, findUserByEmail } from '../users/users.service.js';
import * as repo from './integrations.repository.js';

type Ctx = Pick<Services, 'db' | 'auth' | 'tokens' | 'env' | 'cache'>;

/** Constant-time check of the integration key (decision 15); refused when none is configured. */
export function checkIntegrationKey(configured: string | undefined, presented: string | undefined) {
  if (!isSameSecret(configured, presented))
    throw new AppError('UNAUTHENTICATED', { message: 'A valid integration key is required.' });
}

/**
 * Provisions a person in an organisation and returns their single-use choose-password link. The
 * person will hold a seat: refused when the organisation has none free now (the link keeps none;
 * creating the account checks again).
 */
export async function provisionPerson({ ctx, body, ip }: { ctx: Ctx; body: ProvisionBody; ip: string }) {
  const org = await findGroupById(ctx.db, body.orgId);
  assert(org && org.parentId === null, 'NOT_FOUND', { message: 'Organization not found.' });
  if (await findUserByEmail(ctx.db, body.email)) throw new AppError('EMAIL_TAKEN');
  const token = newToken();
  const expiresAt = new Date(Date.now() + INVITATION_TOKEN_SECONDS * 1000);
  await ctx.db.transaction(async (tx) => {
    assert(hasFreeSeat(await lockSeats(tx, org.id)), 'SEATS_EXCEEDED', {
      message: 'The organization has no open seat. Free a seat or request more seats first.',
    });
    await repo.insertProvisioning(tx, {
      id: newId(),
      tokenHash: hashToken(token),
      email: body.email,
      givenName: body.given_name,
      familyName: body.family_name,
      orgId: org.id,
      role: body.role,
      expiresAt,
    });
  });
  await audit(ctx.db, {
    actorId: null,
    action: 'integration.provision',
    targetType: 'email',
    targetId: body.email,
    orgId: org.id,
    ipAddress: ip,
  });
  return {
    link: `${ctx.env.PUBLIC_URL}/auth/choose-password?token=${encodeURIComponent(token)}`,
    expiresAt: expiresAt.toISOString(),
  };
}

/** What the choose-password screen shows read-only. */
export async function describeProvisioning({ ctx, token }: { ctx: Ctx; token: string }) {
  const row = await repo.findUsableProvisioning(ctx.db, hashToken(token));
  assert(row, 'INVITATION_INVALID', { message: 'This link is invalid, expired or already used.' });
  return { email: row.email, given_name: row.givenName, family_name: row.familyName };
}

/**
 * Creates the provisioned account with the chosen password (the integration vouches for the
 * address), a seat-holding member of the organisation, signs in, and answers a login result with
 * the user's groups. Refused, the link left unused, while the organisation has no free seat.
 */
export async function addProvisionedUser({
  ctx,
  token,
  password,
  ip,
  headers,
}: {
  ctx: Ctx;
  token: string;
  password: string;
  ip: string;
  headers: Headers;
}) {
  const row = await repo.findUsableProvisioning(ctx.db, hashToken(token));
  assert(row, 'INVITATION_INVALID', { message: 'This link is invalid, expired or already used.' });
  assertStrongPassword(password, row);
  if (isVerifiedHolder(await findHolder(ctx.db, row.email))) throw new AppError('EMAIL_TAKEN');
  const userId = newId();
  const credential = { password, hash: await hashPassword(password) };
  const org = await findGroupById(ctx.db, row.orgId);
  assert(org, 'NOT_FOUND', { message: 'Organization not found.' });
  const released = await changeIdentity(ctx, async (tx) => {
    const seats = await lockSeats(tx, org.id);
    if (!(await repo.useProvisioning(tx, row.id)))
      throw new AppError('INVITATION_INVALID', { message: 'This link is invalid, expired or already used.' });
    // The integration vouches for the address: an unverified claim on it is released.
    const releasedUserId = await releaseUnverifiedClaim(tx, row.email);
    await createAccount(tx, {
      auth: ctx.auth,
      credential,
      memberships: [{ groupId: org.id, role: row.role }],
      values: {
        id: userId,
        email: row.email,
        name: `${row.givenName} ${row.familyName}`,
        givenName: row.givenName,
        familyName: row.familyName,
        emailVerified: true,
        role: row.role,
        productType: org.productType,
        activeOrgId: org.id,
      },
    });
    await assertSeatsKept(tx, seats);
    return releasedUserId;
  });
  if (released) await endUserSessions(ctx, [released]);
  await audit(ctx.db, {
    actorId: userId,
    action: 'user.provisioned',
    targetType: 'user',
    targetId: userId,
    orgId: org.id,
    ipAddress: ip,
  });
  const signIn = await ctx.auth.api.signInEmail({
    body: { email: row.email, password, rememberMe: true },
    headers,
    returnHeaders: true,
  });
  const claims = await buildProductClaims(ctx.db, userId);
  assert(claims, 'NOT_FOUND');
  const login = await ctx.tokens.sign(claims, { sessionId: await findSessionId(ctx.auth, signIn.response.token) });
  const rows = await findGroupsOfUser(ctx.db, userId);
  const counts = await countMembers(
    ctx.db,
    rows.map((g) => g.id),
  );
  const groups = rows.map((g) => toWireGroup(g, counts.get(g.id) ?? 0));
  const activeGroups = groups.filter((g) => g._id === org.id || rows.find((r) => r.id === g._id)?.parentId === org.id);
  return { cookies: signIn.headers.getSetCookie(), result: { ...login, groupData: { groups, activeGroups } } };
}
