import { APIError } from 'better-auth/api';
import { INVITATION_TOKEN_SECONDS, LICENSE_VERSION } from '@patientsim/domain/common/constants';
import { isProductType } from '@patientsim/domain/product/product-types';
import { isRole } from '@patientsim/domain/roles/roles';
import type { InviteUnaffiliatedBody } from '@patientsim/domain/auth/auth.schemas';
import { loadIdentity } from '../../identity/claims.js';
import { assertStrongPassword, hashPassword } from '../../identity/password.js';
import { audit } from '../../lib/audit.js';
import { AppError, assert } from '../../lib/errors.js';
import { hashToken, newId, newToken } from '../../lib/ids.js';
import type { LimitRule } from '../../lib/rate-limiter.js';
import { existingAccountEmail, signUpEmail } from '../../mail/templates.js';
import type { Services } from '../../plugins/app/services.js';
import { findPendingInvitationByTokenHash, settleInvitation } from '../invitations/invitations.repository.js';
import * as repo from './auth.repository.js';

/** Failed sign-ins per account and IP, and per IP; e-mails per address (ARCHITECTURE.md, issue rules). */
export const LIMITS = {
  signInAccount: { max: 5, windowMs: 15 * 60_000 },
  signInIp: { max: 50, windowMs: 15 * 60_000 },
  emailPerAddress: { max: 3, windowMs: 15 * 60_000 },
  emailPerIp: { max: 30, windowMs: 60 * 60_000 },
} satisfies Record<string, LimitRule>;

type Ctx = Pick<Services, 'db' | 'auth' | 'tokens' | 'licenseTokens' | 'mailer' | 'limiter' | 'env' | 'cache'>;

function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', { headers: { 'retry-after': String(retryAfterSeconds) } });
}

/** Counts one e-mail to `address` (and from `ip` when given); refuses past either limit. */
async function countEmail(ctx: Ctx, kind: string, address: string, ip?: string) {
  const state = await ctx.limiter.hit(`mail:${kind}:${address}`, LIMITS.emailPerAddress);
  if (state.count > LIMITS.emailPerAddress.max) throw rateLimited(state.retryAfterSeconds);
  if (ip) {
    const fromIp = await ctx.limiter.hit(`mail-ip:${ip}`, LIMITS.emailPerIp);
    if (fromIp.count > LIMITS.emailPerIp.max) throw rateLimited(fromIp.retryAfterSeconds);
  }
}

/**
 * Signs in with e-mail and password and returns the session cookie to set. Failed attempts count
 * per account and IP and per IP; past either limit the answer is 429 with Retry-After.
 */
export async function signIn({
  ctx,
  email,
  password,
  ip,
  headers,
}: {
  ctx: Ctx;
  email: string;
  password: string;
  ip: string;
  headers: Headers;
}) {
  const accountKey = `signin:${email}:${ip}`;
  const ipKey = `signin-ip:${ip}`;
  const [accountState, ipState] = await Promise.all([
    ctx.limiter.peek(accountKey, LIMITS.signInAccount),
    ctx.limiter.peek(ipKey, LIMITS.signInIp),
  ]);
  if (accountState.count >= LIMITS.signInAccount.max) throw rateLimited(accountState.retryAfterSeconds);
  if (ipState.count >= LIMITS.signInIp.max) throw rateLimited(ipState.retryAfterSeconds);

  try {
    const result = await ctx.auth.api.signInEmail({ body: { email, password, rememberMe: true }, headers, returnHeaders: true });
    const { user } = result.response;
    if ((user as { deletedAt?: Date | null }).deletedAt) {
      // A deleted account keeps no session; it answers like a wrong password.
      await (await ctx.auth.$context).internalAdapter.deleteUserSessions(user.id);
      throw new AppError('INVALID_CREDENTIALS');
    }
    await ctx.limiter.reset(accountKey);
    return {
      cookies: result.headers.getSetCookie(),
      user: { id: user.id, email: user.email, emailVerified: user.emailVerified },
    };
  } catch (error) {
    const isBadCredentials = error instanceof AppError || (error instanceof APIError && error.statusCode < 500);
    if (!isBadCredentials) throw error;
    await Promise.all([ctx.limiter.hit(accountKey, LIMITS.signInAccount), ctx.limiter.hit(ipKey, LIMITS.signInIp)]);
    throw new AppError('INVALID_CREDENTIALS');
  }
}

export async function signOut({ ctx, headers }: { ctx: Ctx; headers: Headers }) {
  try {
    const result = await ctx.auth.api.signOut({ headers, returnHeaders: true });
    ctx.cache.clear();
    return result.headers.getSetCookie();
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return [];
    throw error;
  }
}

/**
 * Mints an ID token for the session's user (sign-in completion and renewal). A user who has not
 * accepted the current license gets LICENSE_NOT_ACCEPTED with a short-lived license token.
 */
export async function issueIdToken({ ctx, headers }: { ctx: Ctx; headers: Headers }) {
  // Renewals repeat the same cookie; every session revocation in this process clears the cache.
  const cookie = headers.get('cookie');
  const session = cookie ? await ctx.cache.get(`session:${cookie}`, () => ctx.auth.api.getSession({ headers })) : null;
  if (!session) throw new AppError('UNAUTHENTICATED');
  const userId = session.user.id;
  const identity = await ctx.cache.get(`identity:${userId}`, () => loadIdentity(ctx.db, userId));
  if (!identity) throw new AppError('UNAUTHENTICATED');
  if (identity.licenseVersion !== LICENSE_VERSION) {
    throw new AppError('LICENSE_NOT_ACCEPTED', { details: { licenseToken: await ctx.licenseTokens.issue(userId) } });
  }
  return ctx.tokens.sign(identity.claims);
}

/** Records acceptance of the license version (decision 14). */
export async function acceptLicense({ ctx, token, version, ip }: { ctx: Ctx; token: string; version: string; ip: string }) {
  const userId = await ctx.licenseTokens.verify(token);
  const user = await repo.findUserById(ctx.db, userId);
  assert(user && !user.deletedAt, 'LICENSE_TOKEN_INVALID');
  await repo.recordLicenseAcceptance(ctx.db, { id: newId(), userId, version, ipAddress: ip });
  ctx.cache.clear();
  await audit(ctx.db, { actorId: userId, action: 'license.accept', targetType: 'license', targetId: version, ipAddress: ip });
}

/**
 * Plain sign-up, e-mail first (decision 9): mails a sign-up link. An address that already has an
 * account gets a sign-in reminder instead; the answer is the same either way.
 */
export async function inviteUnaffiliated({
  ctx,
  email,
  accountType,
  ip,
}: {
  ctx: Ctx;
  email: string;
  accountType: InviteUnaffiliatedBody['accountType'];
  ip: string;
}) {
  await countEmail(ctx, 'signup', email, ip);
  const existing = await repo.findUserByEmail(ctx.db, email);
  if (existing) {
    void ctx.mailer.send(existingAccountEmail({ to: email, url: `${ctx.env.PUBLIC_URL}/auth/login` })).catch(() => {});
    return;
  }
  const token = newToken();
  await repo.insertInvitation(ctx.db, {
    id: newId(),
    orgId: null,
    email,
    role: 'STUDENT',
    productType: accountType,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + INVITATION_TOKEN_SECONDS * 1000),
  });
  const url = `${ctx.env.PUBLIC_URL}/auth/signup?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`;
  void ctx.mailer.send(signUpEmail({ to: email, url })).catch(() => {});
}

async function findInvitationFor(ctx: Ctx, token: string, email: string) {
  const found = await findPendingInvitationByTokenHash(ctx.db, hashToken(token));
  assert(found, 'INVITATION_INVALID');
  assert(found.invitation.email === email, 'INVITATION_EMAIL_MISMATCH');
  return found;
}

/** What the invite variant of sign-up shows before the person fills it in. */
export async function describeSignUpInvitation({ ctx, token, email }: { ctx: Ctx; token: string; email: string }) {
  const found = await findInvitationFor(ctx, token, email);
  return { email: found.invitation.email, orgName: found.orgName ?? null };
}

/**
 * The invite variant of sign-up: creates the account (its address is verified: the e-mailed link
 * proved it), joins the inviting organisation if any, uses the invitation, and signs in.
 */
export async function signUp({
  ctx,
  body,
  ip,
  headers,
}: {
  ctx: Ctx;
  body: { token: string; email: string; given_name: string; family_name: string; password: string };
  ip: string;
  headers: Headers;
}) {
  assertStrongPassword(body.password);
  const found = await findInvitationFor(ctx, body.token, body.email);
  if (await repo.findUserByEmail(ctx.db, body.email)) throw new AppError('EMAIL_TAKEN');
  const { invitation } = found;
  const userId = newId();
  const productType = invitation.productType ?? found.orgProductType ?? 'EMS';
  const passwordHash = await hashPassword(body.password);
  await ctx.db.transaction(async (tx) => {
    if (!(await settleInvitation(tx, invitation.id, 'accepted'))) throw new AppError('INVITATION_INVALID');
    await repo.insertUserWithPassword(tx, {
      passwordHash,
      user: {
        id: userId,
        email: body.email,
        name: `${body.given_name} ${body.family_name}`,
        givenName: body.given_name,
        familyName: body.family_name,
        emailVerified: true,
        role: isRole(invitation.role) && invitation.orgId ? invitation.role : 'STUDENT',
        productType: isProductType(productType) ? productType : 'EMS',
        activeOrgId: invitation.orgId,
      },
    });
    if (invitation.orgId) {
      for (const groupId of [invitation.orgId, ...invitation.groupIds]) {
        await repo.addMembership(tx, { groupId, userId, role: invitation.role, subscribed: invitation.throughSubscription });
      }
    }
  });
  ctx.cache.clear();
  await audit(ctx.db, {
    actorId: userId,
    action: 'user.sign-up',
    targetType: 'user',
    targetId: userId,
    orgId: invitation.orgId,
    ipAddress: ip,
  });
  const result = await ctx.auth.api.signInEmail({
    body: { email: body.email, password: body.password, rememberMe: true },
    headers,
    returnHeaders: true,
  });
  return { cookies: result.headers.getSetCookie(), user: { id: userId, email: body.email, emailVerified: true } };
}

/** Mails a reset link if the account exists; the answer and its timing are the same either way. */
export async function requestPasswordReset({ ctx, email, ip }: { ctx: Ctx; email: string; ip: string }) {
  await countEmail(ctx, 'reset', email, ip);
  await ctx.auth.api.requestPasswordReset({ body: { email, redirectTo: '/auth/reset-password' } });
}

/** Sets a new password with a reset token (single use, 1 hour); other sessions end. */
export async function resetPassword({ ctx, token, newPassword }: { ctx: Ctx; token: string; newPassword: string }) {
  assertStrongPassword(newPassword);
  try {
    await ctx.auth.api.resetPassword({ body: { token, newPassword } });
    ctx.cache.clear();
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) throw new AppError('RESET_TOKEN_INVALID');
    throw error;
  }
}

/** Sends a verification e-mail to the user's address unless it is verified already. */
export async function sendVerificationEmail({ ctx, userId }: { ctx: Ctx; userId: string }) {
  const user = await repo.findUserById(ctx.db, userId);
  assert(user && !user.deletedAt, 'NOT_FOUND');
  if (user.emailVerified) return;
  await countEmail(ctx, 'verify', user.email);
  await ctx.auth.api.sendVerificationEmail({ body: { email: user.email, callbackURL: '/auth/emailVerified' } });
}

/** Makes `orgId` the user's active organisation (spec section 4); the client renews its token. */
export async function changeOrganisation({ ctx, userId, orgId, ip }: { ctx: Ctx; userId: string; orgId: string; ip: string }) {
  assert(await repo.isOrganisationMember(ctx.db, userId, orgId), 'NOT_A_MEMBER');
  await repo.setActiveOrganisation(ctx.db, userId, orgId);
  ctx.cache.clear();
  await audit(ctx.db, { actorId: userId, action: 'user.change-org', targetType: 'group', targetId: orgId, orgId, ipAddress: ip });
}
