import { APIError } from 'better-auth/api';
import type { Profile, ReclaimEmailResult, UpdateProfileBody } from '@patientsim/domain/account/account.schemas';
import type { Database } from '../../db/client.js';
import { createResetToken } from '../../identity/auth.js';
import { redeemReclaim } from '../../identity/email-reclaim.js';
import { assertStrongPassword } from '../../identity/password.js';
import { auditAs } from '../../lib/audit.js';
import { toCsv } from '../../lib/csv.js';
import { findHolder, isVerifiedHolder, releaseUnverifiedClaim } from '../../identity/email-ownership.js';
import { applicationGrantsOf, endUserSessions, findSessionId, keepOnlyApplicationGrants } from '../../identity/sessions.js';
import { AppError, assert, isUniqueViolation } from '../../lib/errors.js';
import { changeIdentity } from '../../lib/read-cache.js';
import type { MailMessage } from '../../mail/mailer.js';
import { addressInUseEmail, emailChangeNoticeEmail, verificationEmail } from '../../mail/templates.js';
import { sendInBackground } from '../../lib/background-mail.js';
import { countEmail } from '../../lib/limits.js';
import { verificationLink } from '../../lib/verification-link.js';
import { verifyCurrentPassword } from '../auth/password.service.js';
import type { RequestUser } from '../../lib/access.js';
import type { Services } from '../../plugins/app/services.js';
import { findGroupById } from '../organisations/organisations.service.js';
import {
  findActiveMemberships,
  findOrganisationMemberIds,
  findUserById,
  organisationIdsOf,
  updateUser,
} from '../users/users.service.js';
import * as repo from './account.repository.js';

type Ctx = Pick<Services, 'db' | 'auth' | 'limiter' | 'cache' | 'mailer' | 'env' | 'verificationTokens'>;

/**
 * Saves the changed profile fields of the signed-in user. A new e-mail address needs the current
 * password and is unverified until its link is followed: every session of the user ends, a
 * verification e-mail goes to the new address and the old address is told. The answer is the
 * same whether or not the new address belongs to another account (nothing tells an attacker
 * which addresses have accounts); a proven owner keeps their address, an unverified claim on it
 * is released.
 */
export async function updateOwnProfile({
  ctx,
  actor,
  userId,
  changes,
  ip,
}: {
  ctx: Ctx;
  actor: RequestUser;
  userId: string;
  changes: UpdateProfileBody;
  ip: string;
}): Promise<Profile & { emailChanged: boolean }> {
  assert(actor.id === userId, 'NOT_FOUND');
  const current = await findUserById(ctx.db, userId);
  assert(current && !current.deletedAt, 'NOT_FOUND');
  const newEmail = changes.email !== undefined && changes.email !== current.email ? changes.email : null;
  if (newEmail) {
    await verifyCurrentPassword({ ctx, userId, password: changes.currentPassword ?? '' });
    await countEmail(ctx, 'verify', newEmail, ip);
  }
  const names: Parameters<typeof updateUser>[2] = {};
  if (changes.given_name !== undefined) names.givenName = changes.given_name;
  if (changes.family_name !== undefined) names.familyName = changes.family_name;
  if (names.givenName !== undefined || names.familyName !== undefined) {
    names.name = `${names.givenName ?? current.givenName} ${names.familyName ?? current.familyName}`;
  }
  // The names, the address and the audit event of the save, together or not at all (a crash
  // between two statements must not leave half a save, or a change nobody recorded).
  const { updated, move } = await changeIdentity(ctx, async (tx) => {
    const row = Object.keys(names).length > 0 ? await updateUser(tx, userId, names) : current;
    assert(row, 'NOT_FOUND');
    const addressMove = newEmail ? await moveToAddress(tx, current, newEmail) : null;
    await auditAs(tx, actor, {
      action: 'user.update-profile',
      targetType: 'user',
      targetId: userId,
      ipAddress: ip,
      details: { fields: Object.keys(changes).filter((field) => field !== 'currentPassword') },
    });
    return { updated: row, move: addressMove };
  });
  if (newEmail) await finishAddressMove({ ctx, current, newEmail, move });
  return {
    user_id: updated.id,
    email: newEmail ?? updated.email,
    email_verified: newEmail ? false : updated.emailVerified,
    given_name: updated.givenName,
    family_name: updated.familyName,
    emailChanged: newEmail !== null,
  };
}

type UserRow = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

/** What moving an account onto a new address did: null when a proven owner holds the address. */
export type AddressMove = { released: string | null; isBackToProven: boolean } | null;

/**
 * The e-mail change itself, inside the caller's transaction (so it commits with the rest of the
 * save, or not at all): the account moves onto `newEmail` unverified (keeping the last address it
 * proved), unless a proven owner holds it. `finishAddressMove` follows once the transaction has
 * committed.
 */
export async function moveToAddress(tx: Database, current: UserRow, newEmail: string): Promise<AddressMove> {
  if (isVerifiedHolder(await findHolder(tx, newEmail, current.id))) return null;
  const lastProven = current.emailVerified ? current.email : current.previousEmail;
  // A savepoint: a proven owner taking the address at the same moment undoes the move alone, and
  // the save goes on as if the address had been taken before.
  return tx
    .transaction(async (savepoint) => {
      const released = await releaseUnverifiedClaim(savepoint, newEmail, current.id);
      // Going back to the address the account proved last needs no new proof.
      const isBackToProven = newEmail === lastProven;
      await updateUser(savepoint, current.id, {
        email: newEmail,
        emailVerified: isBackToProven,
        previousEmail: isBackToProven ? null : lastProven,
      });
      return { released, isBackToProven };
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) return null;
      throw error;
    });
}

/**
 * After a committed address change: every session of the user ends, and the e-mails of decision
 * 0012 go out. `notice` is what the last proven address is told (by default: the owner changed it).
 */
export async function finishAddressMove({
  ctx,
  current,
  newEmail,
  move,
  notice = (to) => emailChangeNoticeEmail({ to, newEmail, url: `${ctx.env.PUBLIC_URL}/auth/login` }),
}: {
  ctx: Ctx;
  current: UserRow;
  newEmail: string;
  move: AddressMove;
  notice?: (to: string) => MailMessage;
}) {
  const lastProven = current.emailVerified ? current.email : current.previousEmail;
  const signInUrl = `${ctx.env.PUBLIC_URL}/auth/login`;
  await endUserSessions(ctx, [current.id, ...(move?.released ? [move.released] : [])]);
  if (!move) {
    sendInBackground(ctx, addressInUseEmail({ to: newEmail, url: signInUrl }));
    return;
  }
  if (!move.isBackToProven) {
    const token = await ctx.verificationTokens.issue({ userId: current.id, email: newEmail, previousEmail: lastProven });
    sendInBackground(ctx, verificationEmail({ to: newEmail, url: verificationLink(ctx.env.PUBLIC_URL, token) }));
  }
  if (lastProven && lastProven !== newEmail) sendInBackground(ctx, notice(lastProven));
}

/**
 * Follows a "this wasn't me" link (decision 0033): the account goes back to the address the link
 * was mailed to, every session of it ends, and the answer carries a password reset token so that
 * the person chooses a new password at once. Recorded in every organisation the account belongs to.
 */
export async function reclaimEmailAddress({
  ctx,
  token,
  ip,
}: {
  ctx: Ctx;
  token: string;
  ip: string;
}): Promise<ReclaimEmailResult> {
  const taken = await changeIdentity(ctx, async (tx) => {
    const redeemed = await redeemReclaim(tx, token);
    await auditAs(
      tx,
      { id: redeemed.userId },
      {
        orgIds: organisationIdsOf(await findActiveMemberships(tx, redeemed.userId)),
        action: 'user.reclaim-email',
        targetType: 'user',
        targetId: redeemed.userId,
        ipAddress: ip,
      },
    );
    return redeemed;
  });
  await endUserSessions(ctx, [taken.userId, ...(taken.released ? [taken.released] : [])]);
  const resetToken = await createResetToken(ctx.auth, taken.email);
  if (!resetToken) throw new Error('no reset token for an account just taken back');
  return { email: taken.email, resetToken };
}

/** Changes the password after checking the old one; the user's other sessions end. */
export async function changePassword({
  ctx,
  actor,
  headers,
  oldPassword,
  newPassword,
  ip,
}: {
  ctx: Ctx;
  actor: RequestUser;
  headers: Headers;
  oldPassword: string;
  newPassword: string;
  ip: string;
}) {
  assertStrongPassword(newPassword, { email: actor.email, givenName: actor.given_name, familyName: actor.family_name });
  const session = await ctx.auth.api.getSession({ headers });
  // The bearer token and the session cookie must belong to the same person.
  if (!session || session.user.id !== actor.id) throw new AppError('UNAUTHENTICATED');
  // What the platform's applications were granted in this session lives on after the change.
  const kept = await applicationGrantsOf(ctx.auth, session.session.id);
  try {
    const result = await ctx.auth.api.changePassword({
      body: { currentPassword: oldPassword, newPassword, revokeOtherSessions: true },
      headers,
      returnHeaders: true,
    });
    // The other sessions ended inside the identity library's call; what the platform's applications
    // were granted in them ends here, and the current session's grants follow it to its successor.
    if (result.response.token) {
      const successor = await findSessionId(ctx.auth, result.response.token);
      await keepOnlyApplicationGrants(ctx.auth, actor.id, { kept, successor });
    }
    ctx.cache.clear();
    await auditAs(ctx.db, actor, {
      action: 'user.change-password',
      targetType: 'user',
      targetId: actor.id,
      ipAddress: ip,
    });
    return result.headers.getSetCookie();
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) {
      throw new AppError('INVALID_CREDENTIALS', { message: 'The old password is wrong.' });
    }
    throw error;
  }
}

/**
 * The scenario summary CSV: one row per user and scenario with plays and last played. Only a
 * super admin in a dev organisation may ask; "all members" covers the active organisation.
 */
export async function buildScenarioSummary({ ctx, actor, allUsers }: { ctx: Ctx; actor: RequestUser; allUsers: boolean }) {
  assert(actor.role === 'SUPER_ADMIN' && actor.org, 'FORBIDDEN');
  const org = await findGroupById(ctx.db, actor.org);
  assert(org?.dev, 'FORBIDDEN', { message: 'Scenario summaries are available in a dev organization only.' });
  const userIds = allUsers ? await findOrganisationMemberIds(ctx.db, org.id) : [actor.id];
  const rows = await repo.findScenarioPlays(ctx.db, userIds);
  return toCsv(
    ['email', 'given_name', 'family_name', 'scenario_id', 'scenario_name', 'plays', 'last_played'],
    rows.map((r) => [
      r.email,
      r.givenName,
      r.familyName,
      r.caseId,
      r.caseName,
      String(r.plays),
      r.lastPlayed?.toISOString() ?? '',
    ]),
  );
}
