import { APIError } from 'better-auth/api';
import type { Profile, UpdateProfileBody } from '@patientsim/domain/account/account.schemas';
import { assertStrongPassword } from '../../identity/password.js';
import { audit } from '../../lib/audit.js';
import { toCsv } from '../../lib/csv.js';
import { AppError, assert } from '../../lib/errors.js';
import type { RequestUser } from '../../plugins/app/authenticate.js';
import type { Services } from '../../plugins/app/services.js';
import { findGroupById } from '../groups/groups.repository.js';
import * as repo from './account.repository.js';

type Ctx = Pick<Services, 'db' | 'auth' | 'limiter' | 'cache'>;

/**
 * Saves the changed profile fields of the signed-in user. A new e-mail address is unverified until
 * its link is followed: every session of the user ends and a verification e-mail goes to the new
 * address.
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
  assert(!actor.act, 'FORBIDDEN', { message: 'Profiles cannot be changed while viewing as another user.' });
  const emailChanged = changes.email !== undefined && changes.email !== actor.email;
  if (emailChanged && changes.email && (await repo.emailTakenByOther(ctx.db, changes.email, userId)))
    throw new AppError('EMAIL_TAKEN');
  const values: Parameters<typeof repo.updateUser>[2] = {};
  if (changes.given_name !== undefined) values.givenName = changes.given_name;
  if (changes.family_name !== undefined) values.familyName = changes.family_name;
  if (emailChanged && changes.email) Object.assign(values, { email: changes.email, emailVerified: false });
  const updated = await repo.updateUser(ctx.db, userId, {
    ...values,
    ...(values.givenName !== undefined || values.familyName !== undefined
      ? { name: `${values.givenName ?? actor.given_name} ${values.familyName ?? actor.family_name}` }
      : {}),
  });
  assert(updated, 'NOT_FOUND');
  ctx.cache.clear();
  if (emailChanged) {
    await (await ctx.auth.$context).internalAdapter.deleteUserSessions(userId);
    await ctx.auth.api.sendVerificationEmail({ body: { email: updated.email, callbackURL: '/auth/emailVerified' } });
  }
  await audit(ctx.db, {
    actorId: userId,
    action: 'user.update-profile',
    targetType: 'user',
    targetId: userId,
    ipAddress: ip,
    details: { fields: Object.keys(changes) },
  });
  return {
    user_id: updated.id,
    email: updated.email,
    email_verified: updated.emailVerified,
    given_name: updated.givenName,
    family_name: updated.familyName,
    emailChanged,
  };
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
  assertStrongPassword(newPassword);
  const session = await ctx.auth.api.getSession({ headers });
  // The bearer token and the session cookie must belong to the same person.
  if (!session || session.user.id !== actor.id) throw new AppError('UNAUTHENTICATED');
  try {
    const result = await ctx.auth.api.changePassword({
      body: { currentPassword: oldPassword, newPassword, revokeOtherSessions: true },
      headers,
      returnHeaders: true,
    });
    ctx.cache.clear();
    await audit(ctx.db, {
      actorId: actor.id,
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
  const userIds = allUsers ? await repo.findOrganisationMemberIds(ctx.db, org.id) : [actor.id];
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
