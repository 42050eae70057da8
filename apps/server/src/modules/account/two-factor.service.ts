import { APIError } from 'better-auth/api';
import type { Passkey, TwoFactorStatus } from '@patientsim/domain/auth/two-factor.schemas';
import type { Database } from '../../db/client.js';
import { runInAuthTransaction } from '../../identity/auth.js';
import { findPasskeys, hasSecondFactorIn, loadSecondFactorState } from '../../identity/second-factor.js';
import { audit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { changeIdentity } from '../../lib/read-cache.js';
import type { Services } from '../../plugins/app/services.js';
import * as repo from './two-factor.repository.js';

/**
 * A person's own second factors (decision 0066): an authenticator app with its recovery codes, and
 * passkeys, through better-auth's two-factor and passkey plugins, authenticated by the session
 * cookie (they work while the enrolment gate refuses ID tokens). `twoFactorEnabled` on the user
 * stays true while any factor is left, so the plugin's sign-in hook asks for one.
 */

type Ctx = Pick<Services, 'db' | 'auth' | 'cache' | 'env'>;

/** The caller as the session cookie names them. */
export type CookieCaller = { userId: string; sessionToken: string; amr: readonly string[]; headers: Headers; ip: string };

const isProduction = (ctx: Ctx) => ctx.env.NODE_ENV === 'production';

/** Reads the second-factor state of a person (their factors and who requires one). */
function loadState(ctx: Ctx, userId: string) {
  return loadSecondFactorState(ctx.db, userId, { isProduction: isProduction(ctx) });
}

/** The plugin's refusal of a password as the product's. */
function passwordError(error: unknown): unknown {
  if (error instanceof APIError && error.statusCode < 500 && error.body?.code === 'INVALID_PASSWORD') {
    return new AppError('CURRENT_PASSWORD_WRONG');
  }
  return error;
}

const toWirePasskey = (row: { id: string; name: string | null; createdAt: Date }): Passkey => ({
  id: row.id,
  name: row.name ?? 'Passkey',
  createdAt: row.createdAt.toISOString(),
});

/** The person's factors, the recovery codes left, and who requires a second factor of them. */
export async function getTwoFactorStatus(ctx: Ctx, userId: string): Promise<TwoFactorStatus> {
  const [state, passkeys] = await Promise.all([loadState(ctx, userId), findPasskeys(ctx.db, userId)]);
  const recoveryCodesLeft = state.hasTotp ? (await ctx.auth.api.viewBackupCodes({ body: { userId } })).backupCodes.length : 0;
  return {
    totp: { enabled: state.hasTotp, recoveryCodesLeft },
    passkeys: passkeys.map(toWirePasskey),
    requiredBy: state.requiredBy,
  };
}

/**
 * Starts setting up an authenticator app after checking the password: the secret (as an otpauth
 * URI) and ten recovery codes, shown once. The app counts only once its first code is verified.
 */
export async function startTotpEnrolment(ctx: Ctx, caller: CookieCaller, password: string) {
  if ((await loadState(ctx, caller.userId)).hasTotp) throw new AppError('TOTP_ALREADY_ENABLED');
  const started = await ctx.auth.api.enableTwoFactor({ body: { password }, headers: caller.headers }).catch((error: unknown) => {
    throw passwordError(error);
  });
  if (!('totpURI' in started)) throw new Error('the two-factor plugin did not start an authenticator app');
  return { totpUri: started.totpURI, recoveryCodes: started.backupCodes };
}

/** Records in the caller's session that it proved a second factor just now (`method`: RFC 8176). */
async function recordInSession(ctx: Ctx, caller: CookieCaller, method: 'otp' | 'hwk') {
  if (hasSecondFactorIn(caller.amr)) return;
  const internal = (await ctx.auth.$context).internalAdapter;
  await internal.updateSession(caller.sessionToken, { amr: [...caller.amr, method] });
}

/**
 * Enables the app being set up with its first code. The session then counts as having used the
 * factor: better-auth replaces it (a new session cookie, so the web app renews its ID token) with
 * `amr` ['pwd', 'otp'], or, when the person had a passkey already, it is recorded in this one.
 */
export async function verifyTotpEnrolment(ctx: Ctx, caller: CookieCaller, code: string): Promise<string[]> {
  const app = await repo.findAuthenticatorApp(ctx.db, caller.userId);
  if (!app) throw new AppError('TOTP_NOT_ENABLED');
  if (app.verified) throw new AppError('TOTP_ALREADY_ENABLED');
  const hadFactor = await repo.isTwoFactorEnabled(ctx.db, caller.userId);
  const result = await ctx.auth.api
    .verifyTOTP({ body: { code }, headers: caller.headers, returnHeaders: true })
    .catch((error: unknown) => {
      if (error instanceof APIError && error.statusCode < 500) throw new AppError('SECOND_FACTOR_INVALID');
      throw error;
    });
  if (hadFactor) await recordInSession(ctx, caller, 'otp');
  ctx.cache.clear();
  await audit(ctx.db, {
    actorId: caller.userId,
    action: 'user.two-factor.totp-enable',
    targetType: 'user',
    targetId: caller.userId,
    ipAddress: caller.ip,
  });
  return result.headers.getSetCookie();
}

/**
 * Locks the person's row and checks a factor may go: not their last one while a second factor is
 * required of them. Returns whether a factor is left afterwards.
 */
async function assertRemovable(ctx: Ctx, tx: Database, userId: string, removing: 'totp' | 'passkey') {
  await repo.lockUser(tx, userId);
  const state = await loadSecondFactorState(tx, userId, { isProduction: isProduction(ctx) });
  const left = (state.hasTotp && removing !== 'totp' ? 1 : 0) + state.passkeyCount - (removing === 'passkey' ? 1 : 0);
  if (left <= 0 && state.requiredBy.length > 0) throw new AppError('LAST_FACTOR_REQUIRED');
  return { state, hasFactorLeft: left > 0 };
}

/** Removes the authenticator app (and its recovery codes) after checking the password. */
export async function removeTotp(ctx: Ctx, caller: CookieCaller, password: string) {
  await ctx.auth.api.verifyPassword({ body: { password }, headers: caller.headers }).catch((error: unknown) => {
    throw passwordError(error);
  });
  await changeIdentity(ctx, async (tx) => {
    const { state, hasFactorLeft } = await assertRemovable(ctx, tx, caller.userId, 'totp');
    if (!state.hasTotp) throw new AppError('TOTP_NOT_ENABLED');
    await repo.deleteAuthenticatorApp(tx, caller.userId);
    await repo.setTwoFactorEnabled(tx, caller.userId, hasFactorLeft);
  });
  await audit(ctx.db, {
    actorId: caller.userId,
    action: 'user.two-factor.totp-remove',
    targetType: 'user',
    targetId: caller.userId,
    ipAddress: caller.ip,
  });
}

/** A new set of ten recovery codes after checking the password; the old ones stop working. */
export async function renewRecoveryCodes(ctx: Ctx, caller: CookieCaller, password: string) {
  if (!(await loadState(ctx, caller.userId)).hasTotp) throw new AppError('TOTP_NOT_ENABLED');
  const renewed = await ctx.auth.api
    .generateBackupCodes({ body: { password }, headers: caller.headers })
    .catch((error: unknown) => {
      throw passwordError(error);
    });
  await audit(ctx.db, {
    actorId: caller.userId,
    action: 'user.two-factor.recovery-codes',
    targetType: 'user',
    targetId: caller.userId,
    ipAddress: caller.ip,
  });
  return { recoveryCodes: renewed.backupCodes };
}

/** A passkey ceremony the plugin refused (expired or missing challenge, a bad answer). */
function passkeyError(error: unknown): unknown {
  if (error instanceof APIError) {
    if (error.body?.code === 'SESSION_NOT_FRESH')
      return new AppError('FORBIDDEN', { message: 'Sign in again to add a passkey.' });
    if (error.statusCode < 500 || error.body?.code === 'FAILED_TO_VERIFY_REGISTRATION') return new AppError('PASSKEY_INVALID');
  }
  return error;
}

/** WebAuthn registration options for a new passkey (and the plugin's challenge cookie). */
export async function passkeyRegistrationOptions(ctx: Ctx, caller: CookieCaller) {
  const { headers, response } = await ctx.auth.api
    .generatePasskeyRegistrationOptions({ headers: caller.headers, returnHeaders: true })
    .catch((error: unknown) => {
      throw passkeyError(error);
    });
  // Passed through as JSON to the browser (@simplewebauthn/browser), which reads it.
  return { options: response as unknown as Record<string, unknown>, cookies: headers.getSetCookie() };
}

/**
 * Registers the passkey the browser answered the options with, and makes it a second factor of the
 * sign-in, in one transaction. It is proved in the caller's session too.
 */
export async function registerPasskey(
  ctx: Ctx,
  caller: CookieCaller,
  { name, response }: { name: string; response: Record<string, unknown> },
): Promise<Passkey> {
  const created = await changeIdentity(ctx, (tx) =>
    runInAuthTransaction(ctx.auth, tx, async () => {
      const added = (await ctx.auth.api.verifyPasskeyRegistration({
        // Checked by the plugin (@simplewebauthn/server); the route only knows it is a JSON object.
        body: { response, name },
        headers: caller.headers,
      })) as { id: string; name?: string | null; createdAt: Date | string };
      await repo.setTwoFactorEnabled(tx, caller.userId, true);
      return added;
    }),
  ).catch((error: unknown) => {
    throw passkeyError(error);
  });
  await recordInSession(ctx, caller, 'hwk');
  ctx.cache.clear();
  await audit(ctx.db, {
    actorId: caller.userId,
    action: 'user.passkey.add',
    targetType: 'user',
    targetId: caller.userId,
    ipAddress: caller.ip,
    details: { passkey: name },
  });
  return toWirePasskey({ id: created.id, name: created.name ?? name, createdAt: new Date(created.createdAt) });
}

/** Removes one of the person's passkeys; another person's id is not found. */
export async function removePasskey(ctx: Ctx, caller: CookieCaller, passkeyId: string) {
  const removed = await changeIdentity(ctx, async (tx) => {
    const row = await repo.findOwnPasskey(tx, caller.userId, passkeyId);
    if (!row) throw new AppError('NOT_FOUND');
    const { hasFactorLeft } = await assertRemovable(ctx, tx, caller.userId, 'passkey');
    await repo.deletePasskey(tx, row.id);
    await repo.setTwoFactorEnabled(tx, caller.userId, hasFactorLeft);
    return row;
  });
  await audit(ctx.db, {
    actorId: caller.userId,
    action: 'user.passkey.remove',
    targetType: 'user',
    targetId: caller.userId,
    ipAddress: caller.ip,
    details: { passkey: removed.name ?? 'Passkey' },
  });
}
