import { INVITATION_TOKEN_SECONDS } from '@patientsim/domain/common/constants';
import { isProductType } from '@patientsim/domain/product/product-types';
import type { InviteUnaffiliatedBody } from '@patientsim/domain/auth/auth.schemas';
import { findHolder, isVerifiedHolder, releaseUnverifiedClaim } from '../../identity/email-ownership.js';
import { assertStrongPassword, hashPassword } from '../../identity/password.js';
import { endUserSessions } from '../../identity/sessions.js';
import { changeIdentity } from '../../lib/read-cache.js';
import { audit } from '../../lib/audit.js';
import { AppError, assert } from '../../lib/errors.js';
import { hashToken, newId, newToken } from '../../lib/ids.js';
import { sendInBackground } from '../../lib/background-mail.js';
import { countEmail, LIMITS } from '../../lib/limits.js';
import { verificationLink } from '../../lib/verification-link.js';
import { existingAccountEmail, pendingInvitationReminderEmail, signUpEmail, verificationEmail } from '../../mail/templates.js';
import {
  findPendingInvitationByTokenHash,
  findPendingInvitationsFor,
  insertInvitation,
  settleInvitation,
} from '../invitations/open-invitations.service.js';
import { joinInvitedOrganisation, lockSeats } from '../invitations/seats.service.js';
import * as users from '../users/users.service.js';
import type { AuthCtx } from './auth.context.js';

/** Sign-up: e-mail first, with an invitation, or without one (the address verified afterwards). */

/**
 * Whether `email` has a pending invitation to an organisation; if so it is mailed a reminder to
 * follow it (in the background). The sign-up answer stays the same: only the address's owner
 * learns of the invitation.
 */
async function remindOfPendingInvitation(ctx: AuthCtx, email: string): Promise<boolean> {
  const pending = await findPendingInvitationsFor(ctx.db, email);
  if (pending.length === 0) return false;
  const orgNames = [...new Set(pending.flatMap((row) => (row.orgName ? [row.orgName] : [])))];
  sendInBackground(ctx, pendingInvitationReminderEmail({ to: email, url: `${ctx.env.PUBLIC_URL}/auth/login`, orgNames }));
  return true;
}

/**
 * Plain sign-up, e-mail first (decision 9): mails a sign-up link. An address that already has an
 * account gets a sign-in reminder instead, one with a pending invitation a reminder of it; the
 * answer is the same in every case.
 */
export async function inviteUnaffiliated({
  ctx,
  email,
  accountType,
  ip,
}: {
  ctx: AuthCtx;
  email: string;
  accountType: InviteUnaffiliatedBody['accountType'];
  ip: string;
}) {
  await countEmail(ctx, 'signup', email, ip);
  // An invited person signs up through their invitation's link, which joins the organisation.
  if (await remindOfPendingInvitation(ctx, email)) return;
  // Only a proven owner has an account here: an unverified claim on the address does not block it.
  if (isVerifiedHolder(await findHolder(ctx.db, email))) {
    sendInBackground(ctx, existingAccountEmail({ to: email, url: `${ctx.env.PUBLIC_URL}/auth/login` }));
    return;
  }
  const token = newToken();
  await insertInvitation(ctx.db, {
    id: newId(),
    orgId: null,
    email,
    role: 'STUDENT',
    productType: accountType,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + INVITATION_TOKEN_SECONDS * 1000),
  });
  const url = `${ctx.env.PUBLIC_URL}/auth/signup?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`;
  sendInBackground(ctx, signUpEmail({ to: email, url }));
}

async function findInvitationFor(ctx: AuthCtx, token: string, email: string) {
  const found = await findPendingInvitationByTokenHash(ctx.db, hashToken(token));
  assert(found, 'INVITATION_INVALID');
  assert(found.invitation.email === email, 'INVITATION_EMAIL_MISMATCH');
  return found;
}

/** What the invite variant of sign-up shows before the person fills it in. */
export async function describeSignUpInvitation({ ctx, token, email }: { ctx: AuthCtx; token: string; email: string }) {
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
  ctx: AuthCtx;
  body: { token: string; email: string; given_name: string; family_name: string; password: string };
  ip: string;
  headers: Headers;
}) {
  // The link first: only its holder gets a password judged (the estimate is not free).
  const found = await findInvitationFor(ctx, body.token, body.email);
  assertStrongPassword(body.password, { email: body.email, givenName: body.given_name, familyName: body.family_name });
  if (isVerifiedHolder(await findHolder(ctx.db, body.email))) throw new AppError('EMAIL_TAKEN');
  const { invitation } = found;
  const userId = newId();
  const productType = invitation.productType ?? found.orgProductType ?? 'EMS';
  const credential = { password: body.password, hash: await hashPassword(body.password) };
  const released = await changeIdentity(ctx, async (tx) => {
    const { orgId } = invitation;
    // The organisation's seats are locked before anything is written (see lockSeats).
    const seats = orgId ? await lockSeats(tx, orgId) : null;
    if (!(await settleInvitation(tx, invitation.id, 'accepted'))) throw new AppError('INVITATION_INVALID');
    // Following the e-mailed link proved the address: an unverified claim on it is released.
    const releasedUserId = await releaseUnverifiedClaim(tx, body.email);
    const { role } = invitation;
    await users.createAccount(tx, {
      auth: ctx.auth,
      credential,
      values: {
        id: userId,
        email: body.email,
        name: `${body.given_name} ${body.family_name}`,
        givenName: body.given_name,
        familyName: body.family_name,
        emailVerified: true,
        role: orgId ? role : 'STUDENT',
        productType: isProductType(productType) ? productType : 'EMS',
        activeOrgId: orgId,
      },
    });
    if (seats) await joinInvitedOrganisation(tx, { invitation: { ...invitation, orgId: seats.org.id }, userId, seats });
    return releasedUserId;
  });
  if (released) await endUserSessions(ctx, [released]);
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

/**
 * Sign-up without an invitation token (the invite variant reached by an e-mail alone): creates the
 * account with its address unverified and mails a verification link; until it is followed the
 * account can do nothing but verify (decision 0012). An address that already has an account, or a
 * pending invitation, creates nothing (it is mailed a reminder instead); the answer is the same in
 * every case (nothing tells which addresses have accounts or invitations), and nobody is signed in.
 */
export async function register({
  ctx,
  body,
  ip,
}: {
  ctx: AuthCtx;
  body: { email: string; given_name: string; family_name: string; password: string };
  ip: string;
}) {
  // Counted first, so that a client gets only so many passwords judged (the estimate is not free); a
  // refused password gives the address its mail back, not the client its count.
  await countEmail(ctx, 'signup', body.email, ip);
  try {
    assertStrongPassword(body.password, { email: body.email, givenName: body.given_name, familyName: body.family_name });
  } catch (error) {
    await ctx.limiter.refund(`signup:${body.email}`, LIMITS.emailPerAddress);
    throw error;
  }
  if (await remindOfPendingInvitation(ctx, body.email)) return;
  const holder = await findHolder(ctx.db, body.email);
  if (holder) {
    if (holder.emailVerified) {
      sendInBackground(ctx, existingAccountEmail({ to: body.email, url: `${ctx.env.PUBLIC_URL}/auth/login` }));
    }
    return;
  }
  const userId = newId();
  const credential = { password: body.password, hash: await hashPassword(body.password) };
  const isCreated = await ctx.db
    .transaction(async (tx) => {
      await users.createAccount(tx, {
        auth: ctx.auth,
        credential,
        values: {
          id: userId,
          email: body.email,
          name: `${body.given_name} ${body.family_name}`,
          givenName: body.given_name,
          familyName: body.family_name,
          emailVerified: false,
        },
      });
      await audit(tx, { actorId: userId, action: 'user.register', targetType: 'user', targetId: userId, ipAddress: ip });
      return true;
    })
    .catch((error: unknown) => {
      // Someone took the address at the same moment: answer as if it had been taken before.
      if (error instanceof AppError && error.code === 'EMAIL_TAKEN') return false;
      throw error;
    });
  if (!isCreated) return;
  const token = await ctx.verificationTokens.issue({ userId, email: body.email, previousEmail: null });
  sendInBackground(ctx, verificationEmail({ to: body.email, url: verificationLink(ctx.env.PUBLIC_URL, token) }));
}
