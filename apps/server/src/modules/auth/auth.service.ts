import { APIError } from 'better-auth/api';
import { INVITATION_TOKEN_SECONDS, LICENSE_VERSION } from '@patientsim/domain/common/constants';
import { isProductType } from '@patientsim/domain/product/product-types';
import { isRole } from '@patientsim/domain/roles/roles';
import type { InviteUnaffiliatedBody } from '@patientsim/domain/auth/auth.schemas';
import {
  findHolder,
  findPendingChangeFrom,
  isVerifiedHolder,
  proveAddress,
  releaseUnverifiedClaim,
} from '../../identity/email-ownership.js';
import { mailReclaimLinkForReset } from '../../identity/email-reclaim.js';
import { assertStrongPassword, hashPassword, verifyPassword } from '../../identity/password.js';
import { endSession, endUserSessions, isSessionLive } from '../../identity/sessions.js';
import { checkPassword, openSession } from '../../identity/sign-in.js';
import { audit } from '../../lib/audit.js';
import { AppError, assert, DEPENDENCY_RETRY_AFTER_SECONDS, isUniqueViolation } from '../../lib/errors.js';
import { hashToken, newId, newToken } from '../../lib/ids.js';
import type { LimitRule } from '../../lib/rate-limiter.js';
import type { MailMessage } from '../../mail/mailer.js';
import {
  existingAccountEmail,
  pendingInvitationReminderEmail,
  signInLockedEmail,
  signUpEmail,
  verificationEmail,
} from '../../mail/templates.js';
import type { Services } from '../../plugins/app/services.js';
import {
  findPendingInvitationByTokenHash,
  findPendingInvitationsFor,
  insertInvitation,
  settleInvitation,
} from '../invitations/open-invitations.service.js';
import { joinInvitedOrganisation, lockSeats } from '../invitations/seats.service.js';
import * as users from '../users/users.service.js';

/**
 * The identity rate limits (decisions 0010 and 0039). Sign-in attempts count before the password is
 * checked and only failures stay counted:
 * - per account and client (the browser when it holds the account's device cookie, else the client
 *   address): 5 failures in a row (forgotten a day after the first, or at a successful sign-in),
 *   then a lockout of that client alone for `lockoutSeconds`; its lockouts are counted for 7 days
 *   from the first (or until a successful sign-in) so that each lasts twice as long;
 * - per account, from clients it does not know (no device cookie of its own): 20 failures in a
 *   day, then such clients are paused for the rest of the day; browsers it knows still get through
 *   and a password reset lifts the pause;
 * - per client IP: 50 failures in 15 minutes.
 * E-mails: 3 of one kind per address in 15 minutes, 30 per client IP in an hour. Wrong current
 * passwords before a sensitive change: 5 per account in 15 minutes.
 */
export const LIMITS = {
  signInClient: { name: 'signin-client', max: 5, windowSeconds: 24 * 60 * 60 },
  // A counter, never a refusal: how many lockouts the account has had on that client.
  signInClientLockouts: { name: 'signin-client-lockouts', max: Number.MAX_SAFE_INTEGER, windowSeconds: 7 * 24 * 60 * 60 },
  signInAccount: { name: 'signin-account-new-clients', max: 20, windowSeconds: 24 * 60 * 60 },
  signInIp: { name: 'signin-ip', max: 50, windowSeconds: 15 * 60 },
  passwordCheck: { name: 'password-check', max: 5, windowSeconds: 15 * 60 },
  emailPerAddress: { name: 'mail-address', max: 3, windowSeconds: 15 * 60 },
  emailPerIp: { name: 'mail-ip', max: 30, windowSeconds: 60 * 60 },
} satisfies Record<string, LimitRule>;

/** The first lockout of a client lasts 15 minutes; each further one twice the last, at most 24 hours. */
export const SIGN_IN_LOCKOUT = { firstSeconds: 15 * 60, maxSeconds: 24 * 60 * 60 } as const;

/** How long a client's `lockout`-th lockout (1, 2, ...) lasts: 15 min, 30 min, 1 h, ... 16 h, then 24 h. */
export function lockoutSeconds(lockout: number): number {
  return Math.min(SIGN_IN_LOCKOUT.firstSeconds * 2 ** Math.max(0, lockout - 1), SIGN_IN_LOCKOUT.maxSeconds);
}

type Ctx = Pick<
  Services,
  'db' | 'auth' | 'tokens' | 'licenseTokens' | 'verificationTokens' | 'deviceCookies' | 'mailer' | 'limiter' | 'env' | 'cache'
>;

/** Sends without waiting, so that answers take the same time whether or not a mail goes out. */
export function sendInBackground(ctx: Pick<Ctx, 'mailer'>, message: MailMessage) {
  void ctx.mailer.send(message).catch(() => {});
}

/** The e-mail verification link (its token is bound to one account and one address). */
export const verificationLink = (publicUrl: string, token: string) =>
  `${publicUrl}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`;

/** Where verification links land: verified or not, the browser goes on to /auth/emailVerified. */
export const VERIFY_EMAIL_PATH = '/api/auth/verify-email';

/**
 * Checks the signed-in user's current password before a sensitive change (a stolen token alone
 * is not enough). Wrong guesses are limited per account (LIMITS.passwordCheck).
 */
export async function verifyCurrentPassword({
  ctx,
  userId,
  password,
}: {
  ctx: Pick<Ctx, 'db' | 'limiter'>;
  userId: string;
  password: string;
}) {
  // Counted before the check (parallel guesses cannot all be checked); a right password gives it back.
  const state = await ctx.limiter.consume(userId, LIMITS.passwordCheck);
  if (!state.isAllowed) throw rateLimited(state.retryAfterSeconds);
  const hash = await users.findPasswordHash(ctx.db, userId);
  const isRight = hash !== null && (await verifyPassword({ hash, password }));
  if (!isRight) throw new AppError('CURRENT_PASSWORD_WRONG');
  await ctx.limiter.refund(userId, LIMITS.passwordCheck);
}

function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', { headers: { 'retry-after': String(retryAfterSeconds) } });
}

/** Counts one e-mail to `address` (and from `ip` when given); refuses past either limit. */
export async function countEmail(ctx: Pick<Ctx, 'limiter'>, kind: string, address: string, ip?: string) {
  const state = await ctx.limiter.consume(`${kind}:${address}`, LIMITS.emailPerAddress);
  if (!state.isAllowed) throw rateLimited(state.retryAfterSeconds);
  if (ip) {
    const fromIp = await ctx.limiter.consume(ip, LIMITS.emailPerIp);
    if (!fromIp.isAllowed) throw rateLimited(fromIp.retryAfterSeconds);
  }
}

/** Who tries to sign in, as the limits see them: the client address, and the device the account knows it by. */
type SignInClient = { ip: string; deviceId: string | null };

/** The key of an account's counters for one client: its device when the account knows it, else its address. */
export function signInClientKey(email: string, { ip, deviceId }: SignInClient): string {
  return deviceId ? `${email}|device:${deviceId}` : `${email}|ip:${ip}`;
}

/**
 * Counts a sign-in attempt before its password is checked (check and count are one step, so
 * parallel attempts cannot all slip under a limit): per client IP, per account and client, and
 * per account from clients it does not know. The attempt that first goes past the account and
 * client's limit locks that client out, longer each time; the one that first goes past the
 * account's limit pauses the clients it does not know. Both tell the owner. Throws RATE_LIMITED
 * when the attempt must not be checked.
 */
async function countSignInAttempt(ctx: Ctx, email: string, client: SignInClient) {
  const fromIp = await ctx.limiter.consume(client.ip, LIMITS.signInIp);
  if (!fromIp.isAllowed) throw rateLimited(fromIp.retryAfterSeconds);
  const key = signInClientKey(email, client);
  const fromClient = await ctx.limiter.consume(key, LIMITS.signInClient);
  if (!fromClient.isAllowed) {
    // A refused attempt checks nothing: it does not use up the address's allowance.
    await ctx.limiter.refund(client.ip, LIMITS.signInIp);
    // Only one attempt sees the count just past the limit: later ones find the lock (a block restarts
    // the count there and each refusal adds to it), so each lockout is counted and mailed once.
    if (fromClient.count !== LIMITS.signInClient.max + 1) throw rateLimited(fromClient.retryAfterSeconds);
    const lockouts = await ctx.limiter.consume(key, LIMITS.signInClientLockouts);
    const seconds = lockoutSeconds(lockouts.count);
    await ctx.limiter.block(key, LIMITS.signInClient, seconds);
    notifyLockout(ctx, email, { seconds, isAccountWide: false });
    throw rateLimited(seconds);
  }
  // A browser the account knows is not slowed by guesses made elsewhere.
  if (client.deviceId) return;
  const fromAnywhere = await ctx.limiter.consume(email, LIMITS.signInAccount);
  if (fromAnywhere.isAllowed) return;
  await Promise.all([ctx.limiter.refund(client.ip, LIMITS.signInIp), ctx.limiter.refund(key, LIMITS.signInClient)]);
  if (fromAnywhere.count === LIMITS.signInAccount.max + 1) {
    notifyLockout(ctx, email, { seconds: fromAnywhere.retryAfterSeconds, isAccountWide: true });
  }
  throw rateLimited(fromAnywhere.retryAfterSeconds);
}

/**
 * Mails the owner of an account whose sign-in was just locked for a client, or paused for new
 * clients; an address without an account (or a deleted one) gets nothing. In the background, so
 * that the answer's timing says nothing about whether the account exists.
 */
function notifyLockout(ctx: Ctx, email: string, { seconds, isAccountWide }: { seconds: number; isAccountWide: boolean }) {
  const send = async () => {
    const owner = await users.findUserByEmail(ctx.db, email);
    if (!owner || owner.deletedAt) return;
    const url = `${ctx.env.PUBLIC_URL}/auth/reset-password`;
    await ctx.mailer.send(signInLockedEmail({ to: owner.email, url, lockedForSeconds: seconds, isAccountWide }));
  };
  void send().catch(() => {});
}

/**
 * After a password reset (it proved the mailbox): forgets the account's sign-in failures, the pause
 * of new clients and the locks of the client that reset it (by address, and by device if the
 * account knows it), and returns the device cookie that makes that browser known to the account.
 */
async function trustResettingClient(
  ctx: Ctx,
  { userId, ip, cookieHeader }: { userId: string; ip: string; cookieHeader?: string },
) {
  // Read after the reset: it may have given the account back its proven address.
  const account = await users.findUserById(ctx.db, userId);
  if (!account) return [];
  const deviceId = ctx.deviceCookies.deviceOf(account.email, cookieHeader);
  const keys = [signInClientKey(account.email, { ip, deviceId: null })];
  if (deviceId) keys.push(signInClientKey(account.email, { ip, deviceId }));
  // The password is changed already: a failing counter store must not make the answer say otherwise
  // (the token is used up); the device cookie still lets this browser through.
  await Promise.all([
    ctx.limiter.reset(account.email, LIMITS.signInAccount),
    ...keys.flatMap((key) => [ctx.limiter.reset(key, LIMITS.signInClient), ctx.limiter.reset(key, LIMITS.signInClientLockouts)]),
  ]).catch(() => {});
  return [ctx.deviceCookies.issue(account.email)];
}

/**
 * Signs in with e-mail and password and returns the cookies to set: the session's, and the device
 * cookie that makes this browser known to the account; with them the license token while the
 * current license is not accepted (null once it is). Failed attempts count per account and
 * client, per account from unknown clients, and per IP; past a limit the answer is 429 with
 * Retry-After.
 */
export async function signIn({
  ctx,
  email,
  password,
  ip,
  userAgent,
  cookieHeader,
}: {
  ctx: Ctx;
  email: string;
  password: string;
  ip: string;
  userAgent: string;
  cookieHeader: string | undefined;
}) {
  const client = { ip, deviceId: ctx.deviceCookies.deviceOf(email, cookieHeader) };
  const clientKey = signInClientKey(email, client);
  await countSignInAttempt(ctx, email, client);
  try {
    const user = await checkPassword(ctx.db, { email, password });
    if (!user) throw new AppError('INVALID_CREDENTIALS');
    if (user.deletedAt) {
      // A deleted account keeps no session; it answers like a wrong password.
      await endUserSessions(ctx, [user.id]);
      throw new AppError('INVALID_CREDENTIALS');
    }
    const { cookie } = await openSession({ auth: ctx.auth, db: ctx.db, user, ipAddress: ip, userAgent });
    // Only failures stay counted: the owner's success clears this client's run and gives the attempt
    // back. The account's count of unknown clients stays: guessing elsewhere may go on.
    await Promise.all([
      ctx.limiter.reset(clientKey, LIMITS.signInClient),
      ctx.limiter.reset(clientKey, LIMITS.signInClientLockouts),
      ctx.limiter.refund(ip, LIMITS.signInIp),
      ...(client.deviceId ? [] : [ctx.limiter.refund(email, LIMITS.signInAccount)]),
    ]);
    return {
      cookies: [cookie, ctx.deviceCookies.issue(email)],
      user: { id: user.id, email: user.email, emailVerified: user.emailVerified },
      // Read from the row the password check loaded: the client learns now that the ID token would
      // be refused until the license is accepted (decision 14), and goes to the license screen.
      licenseToken: user.licenseVersion === LICENSE_VERSION ? null : await ctx.licenseTokens.issue(user.id),
    };
  } catch (error) {
    if (!(error instanceof AppError)) {
      // The server failed, the password was not judged: the attempt does not count.
      await Promise.all([
        ctx.limiter.refund(clientKey, LIMITS.signInClient),
        ctx.limiter.refund(ip, LIMITS.signInIp),
        ...(client.deviceId ? [] : [ctx.limiter.refund(email, LIMITS.signInAccount)]),
      ]).catch(() => {});
      throw error;
    }
    throw new AppError('INVALID_CREDENTIALS');
  }
}

/**
 * Ends the session behind the cookie and returns the cookies that clear it. The session is ended
 * first, by a call that fails rather than logs: while it cannot be ended (Redis or the database out
 * of reach) the answer is 503 and the cookie stays, never a 200 for a session that lives on.
 */
export async function signOut({ ctx, headers }: { ctx: Ctx; headers: Headers }) {
  // A session that cannot be read cannot be ended: the browser keeps its cookie and tries again
  // (the identity library reports a failed read without its cause, and Redis may not know yet that
  // its connection dropped).
  const current = await ctx.auth.api.getSession({ headers, query: { disableRefresh: true } }).catch((error: unknown) => {
    if (error instanceof APIError && error.statusCode >= 500) {
      throw new AppError('SERVICE_UNAVAILABLE', { headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) } });
    }
    throw error;
  });
  if (current) await endSession(ctx, current.session.token);
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
  // Renewals repeat the same cookie; every session revocation clears the cache. A session that
  // slid forward comes with a refreshed cookie, passed on so the browser keeps it as long.
  const cookie = headers.get('cookie');
  const found = cookie
    ? await ctx.cache.get(`session:${cookie}`, async () => {
        const result = await ctx.auth.api.getSession({ headers, returnHeaders: true });
        return { session: result.response, cookies: result.headers.getSetCookie() };
      })
    : null;
  const session = found?.session;
  if (!session) throw new AppError('UNAUTHENTICATED');
  const userId = session.user.id;
  if (!isSessionLive(session.session, userId)) {
    // Past its absolute lifetime: renewals slid it, but a session never outlives 30 days.
    await ctx.auth.api.revokeSession({ body: { token: session.session.token }, headers }).catch(() => {});
    ctx.cache.clear();
    throw new AppError('SESSION_ENDED');
  }
  const identity = await ctx.cache.get(`identity:${userId}`, () => users.loadIdentity(ctx.db, userId));
  if (!identity) throw new AppError('UNAUTHENTICATED');
  if (identity.licenseVersion !== LICENSE_VERSION) {
    throw new AppError('LICENSE_NOT_ACCEPTED', { details: { licenseToken: await ctx.licenseTokens.issue(userId) } });
  }
  return { ...(await ctx.tokens.sign(identity.claims, { sessionId: session.session.id })), cookies: found.cookies };
}

/** Records acceptance of the license version (decision 14). */
export async function acceptLicense({ ctx, token, version, ip }: { ctx: Ctx; token: string; version: string; ip: string }) {
  const userId = await ctx.licenseTokens.verify(token);
  const user = await users.findUserById(ctx.db, userId);
  assert(user && !user.deletedAt, 'LICENSE_TOKEN_INVALID');
  await users.recordLicenseAcceptance(ctx.db, { id: newId(), userId, version, ipAddress: ip });
  ctx.cache.clear();
  await audit(ctx.db, { actorId: userId, action: 'license.accept', targetType: 'license', targetId: version, ipAddress: ip });
}

/**
 * Whether `email` has a pending invitation to an organisation; if so it is mailed a reminder to
 * follow it (in the background). The sign-up answer stays the same: only the address's owner
 * learns of the invitation.
 */
async function remindOfPendingInvitation(ctx: Ctx, email: string): Promise<boolean> {
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
  ctx: Ctx;
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
  // The link first: only its holder gets a password judged (the estimate is not free).
  const found = await findInvitationFor(ctx, body.token, body.email);
  assertStrongPassword(body.password, { email: body.email, givenName: body.given_name, familyName: body.family_name });
  if (isVerifiedHolder(await findHolder(ctx.db, body.email))) throw new AppError('EMAIL_TAKEN');
  const { invitation } = found;
  const userId = newId();
  const productType = invitation.productType ?? found.orgProductType ?? 'EMS';
  const passwordHash = await hashPassword(body.password);
  const released = await ctx.db.transaction(async (tx) => {
    const { orgId } = invitation;
    // The organisation's seats are locked before anything is written (see lockSeats).
    const seats = orgId ? await lockSeats(tx, orgId) : null;
    if (!(await settleInvitation(tx, invitation.id, 'accepted'))) throw new AppError('INVITATION_INVALID');
    // Following the e-mailed link proved the address: an unverified claim on it is released.
    const releasedUserId = await releaseUnverifiedClaim(tx, body.email);
    const role = isRole(invitation.role) ? invitation.role : 'STUDENT';
    await users.createAccount(tx, {
      passwordHash,
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
  ctx: Ctx;
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
  const passwordHash = await hashPassword(body.password);
  const isCreated = await ctx.db
    .transaction(async (tx) => {
      await users.createAccount(tx, {
        passwordHash,
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
      if (isUniqueViolation(error)) return false;
      throw error;
    });
  if (!isCreated) return;
  const token = await ctx.verificationTokens.issue({ userId, email: body.email, previousEmail: null });
  sendInBackground(ctx, verificationEmail({ to: body.email, url: verificationLink(ctx.env.PUBLIC_URL, token) }));
}

/** Mails a reset link if the account exists; the answer and its timing are the same either way. */
export async function requestPasswordReset({ ctx, email, ip }: { ctx: Ctx; email: string; ip: string }) {
  await countEmail(ctx, 'reset', email, ip);
  // The account whose proven address this is: its holder, or one that moved to a new address it
  // has not verified yet (the link goes to this proven address, see createAuth).
  const holder = await findHolder(ctx.db, email);
  const account = isVerifiedHolder(holder) ? holder : await findPendingChangeFrom(ctx.db, email);
  // Else an organisation may have moved an account away from this address: it can take it back.
  if (!account) return mailReclaimLinkForReset(ctx, email);
  // A deleted account keeps its address (it stays taken) but gets no mail.
  if (account.deletedAt) return;
  await ctx.auth.api.requestPasswordReset({ body: { email: account.email, redirectTo: '/auth/reset-password' } });
}

/** The account a reset token was made for, while the token is unused and unexpired. */
async function findResetAccount(ctx: Ctx, token: string) {
  const found = await (await ctx.auth.$context).internalAdapter.findVerificationValue(`reset-password:${token}`);
  // A copy read from Redis carries its expiry as text.
  if (!found || new Date(found.expiresAt).getTime() <= Date.now()) return null;
  return users.findUserById(ctx.db, found.value);
}

/**
 * Sets a new password with a reset token (single use, 1 hour); other sessions end. Returns the
 * cookies to set: the resetting browser becomes known to the account, and its sign-in limits lift.
 */
export async function resetPassword({
  ctx,
  token,
  newPassword,
  ip,
  cookieHeader,
}: {
  ctx: Ctx;
  token: string;
  newPassword: string;
  ip: string;
  cookieHeader?: string | undefined;
}) {
  // better-auth uses the link up before it touches Redis: a reset that then fails (Redis out of
  // reach) would leave the person without a link and with the old password. What needs Redis runs
  // first, leaving the link as it was when it fails: reading the link, and ending the account's
  // sessions (which the reset does anyway). A link mailed before the account was deleted resets nothing.
  const account = await findResetAccount(ctx, token);
  if (!account || account.deletedAt) throw new AppError('RESET_TOKEN_INVALID');
  assertStrongPassword(newPassword, account);
  await endUserSessions(ctx, [account.id]);
  try {
    await ctx.auth.api.resetPassword({ body: { token, newPassword } });
    ctx.cache.clear();
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) throw new AppError('RESET_TOKEN_INVALID');
    throw error;
  }
  return trustResettingClient(ctx, { userId: account.id, ip, cookieHeader });
}

/** Sends a verification e-mail to the user's address unless it is verified already. */
export async function sendVerificationEmail({ ctx, userId }: { ctx: Ctx; userId: string }) {
  const user = await users.findUserById(ctx.db, userId);
  assert(user && !user.deletedAt, 'NOT_FOUND');
  if (user.emailVerified) return;
  await countEmail(ctx, 'verify', user.email);
  const token = await ctx.verificationTokens.issue({ userId, email: user.email, previousEmail: user.previousEmail });
  sendInBackground(ctx, verificationEmail({ to: user.email, url: verificationLink(ctx.env.PUBLIC_URL, token) }));
}

/**
 * Follows a verification link: the account proves the address (and wins it from an unverified
 * claim of another account, which goes back to the address it proved last and is signed out).
 */
export async function verifyEmail({ ctx, token, ip }: { ctx: Ctx; token: string; ip: string }) {
  const link = await ctx.verificationTokens.verify(token);
  const { released } = await proveAddress(ctx.db, link);
  if (released) await endUserSessions(ctx, [released]);
  ctx.cache.clear();
  await audit(ctx.db, {
    actorId: link.userId,
    action: 'user.verify-email',
    targetType: 'user',
    targetId: link.userId,
    ipAddress: ip,
    ...(released ? { details: { released } } : {}),
  });
}

/** Makes `orgId` the user's active organisation (spec section 4); the client renews its token. */
export async function changeOrganisation({ ctx, userId, orgId, ip }: { ctx: Ctx; userId: string; orgId: string; ip: string }) {
  assert(await users.isOrganisationMember(ctx.db, userId, orgId), 'NOT_A_MEMBER');
  await users.setActiveOrganisation(ctx.db, userId, orgId);
  ctx.cache.clear();
  await audit(ctx.db, { actorId: userId, action: 'user.change-org', targetType: 'group', targetId: orgId, orgId, ipAddress: ip });
}
