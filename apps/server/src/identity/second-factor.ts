import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, createAuthMiddleware } from 'better-auth/api';
import { expireCookie } from 'better-auth/cookies';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import { displayGroupName } from '@patientsim/domain/groups/group.schemas';
import type { Database } from '../db/client.js';
import type { ReadCache } from '../lib/read-cache.js';
import { passkey, twoFactor, user } from '../db/schema/auth.js';
import { group, groupMember } from '../db/schema/groups.js';

/**
 * The second factor of a sign-in (decision 0066): what a person has enrolled, who requires it of
 * them, and the rules better-auth's pipeline keeps for a passkey used as the second step.
 */

/** better-auth's two-factor cookie (its name without the prefix), set by the password's step. */
const TWO_FACTOR_COOKIE = 'two_factor';
/** What a session's `amr` holds once a second factor was proved in it (RFC 8176). */
const SECOND_FACTOR_AMR = new Set(['otp', 'hwk']);
/** The name `requiredBy` gives the platform's own rule for super admins in production. */
const PLATFORM_REQUIREMENT = 'PatientSim';

/** Whether a session's `amr` shows a second factor (an app, a recovery code or a passkey). */
export function hasSecondFactorIn(amr: readonly string[] | null | undefined): boolean {
  return (amr ?? []).some((method) => SECOND_FACTOR_AMR.has(method));
}

/** A person's factors and who requires one of them. */
export type SecondFactorState = {
  /** A verified authenticator app. */
  hasTotp: boolean;
  passkeyCount: number;
  /** Organisation names (and PLATFORM_REQUIREMENT) whose requirement covers the person. */
  requiredBy: string[];
};

/**
 * Reads a person's second factors and requirement: the organisations whose required roles include
 * the person's role there, and the platform for a super admin when `isProduction`.
 */
export async function loadSecondFactorState(
  db: Database,
  userId: string,
  { isProduction }: { isProduction: boolean },
): Promise<SecondFactorState> {
  const [[person], [app], [keys]] = await Promise.all([
    db.select({ role: user.role }).from(user).where(eq(user.id, userId)),
    db.select({ verified: twoFactor.verified }).from(twoFactor).where(eq(twoFactor.userId, userId)),
    db.select({ count: count() }).from(passkey).where(eq(passkey.userId, userId)),
  ]);
  if (!person) return { hasTotp: false, passkeyCount: 0, requiredBy: [] };
  const requiring = await db
    .select({ name: group.name })
    .from(groupMember)
    .innerJoin(group, eq(group.id, groupMember.groupId))
    .where(
      and(
        eq(groupMember.userId, userId),
        isNull(groupMember.removedAt),
        isNull(group.parentId),
        sql`${groupMember.role} = any(${group.twoFactorRoles})`,
      ),
    )
    .orderBy(asc(group.name));
  const requiredBy = requiring.map((row) => displayGroupName(row.name));
  if (isProduction && person.role === 'SUPER_ADMIN') requiredBy.push(PLATFORM_REQUIREMENT);
  return { hasTotp: app?.verified === true, passkeyCount: keys?.count ?? 0, requiredBy };
}

/**
 * A person's second-factor state through the read cache (every write that changes it, a factor or
 * a requirement, clears the cache): what the token route and the OpenID provider ask at each renewal
 * and authorization. `env` says whether the platform's own rule for super admins applies.
 */
export function secondFactorStateOf(
  ctx: { db: Database; cache: ReadCache; env: { NODE_ENV: string } },
  userId: string,
): Promise<SecondFactorState> {
  return ctx.cache.get(`second-factor:${userId}`, () =>
    loadSecondFactorState(ctx.db, userId, { isProduction: ctx.env.NODE_ENV === 'production' }),
  );
}

/**
 * What a session lacks for the second-factor rule: `enrol` while the person must use a second
 * factor and has none; `prove` while they have one but this session was signed in without it;
 * null when nothing is required or the session proved one.
 */
export function secondFactorShortfall(
  state: SecondFactorState,
  amr: readonly string[] | null | undefined,
): 'enrol' | 'prove' | null {
  if (state.requiredBy.length === 0 || hasSecondFactorIn(amr)) return null;
  return state.hasTotp || state.passkeyCount > 0 ? 'prove' : 'enrol';
}

/** A person's passkeys, oldest first. */
export function findPasskeys(db: Database, userId: string) {
  return db
    .select({
      id: passkey.id,
      name: passkey.name,
      createdAt: passkey.createdAt,
      credentialID: passkey.credentialID,
      transports: passkey.transports,
    })
    .from(passkey)
    .where(eq(passkey.userId, userId))
    .orderBy(asc(passkey.createdAt), asc(passkey.id));
}

/** Whether the account with this address has a passkey (the sign-in's methods). */
export async function hasPasskeysByEmail(db: Database, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: passkey.id })
    .from(passkey)
    .innerJoin(user, eq(user.id, passkey.userId))
    .where(eq(user.email, email.toLowerCase()))
    .limit(1);
  return row !== undefined;
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The verification the password's step left behind its two-factor cookie, if still valid. */
export async function findPendingSignIn(ctx: HookContext) {
  const identifier = await ctx.getSignedCookie(ctx.context.createAuthCookie(TWO_FACTOR_COOKIE).name, ctx.context.secret);
  if (!identifier) return null;
  const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
  if (!pending || pending.expiresAt < new Date()) return null;
  return { identifier, userId: pending.value };
}

const expired = () => new APIError('UNAUTHORIZED', { message: 'Invalid two factor cookie', code: 'INVALID_TWO_FACTOR_COOKIE' });

const PASSKEY_SIGN_IN = '/passkey/verify-authentication';

/**
 * A passkey only as the second step of a sign-in, in better-auth's pipeline wherever it is called
 * from: the passkey's own sign-in requires the two-factor cookie of a password's step and a passkey
 * of the person whose password it checked, and uses that step up, as a code of the app does. It
 * also answers, server side only, whose password's step the request's two-factor cookie completes.
 */
export function passkeyAsSecondStep() {
  return {
    id: 'passkey-as-second-step',
    endpoints: {
      /** Whose password's step the request's two-factor cookie stands for; null when none is valid. */
      findPendingSignIn: createAuthEndpoint.serverOnly({ method: 'GET' }, async (ctx) => {
        const pending = await findPendingSignIn(ctx);
        return pending ? { userId: pending.userId } : null;
      }),
    },
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === PASSKEY_SIGN_IN,
          handler: createAuthMiddleware(async (ctx) => {
            const pending = await findPendingSignIn(ctx);
            if (!pending) throw expired();
            const credentialId = (ctx.body as { response?: { id?: unknown } } | undefined)?.response?.id;
            const owned =
              typeof credentialId === 'string'
                ? await ctx.context.adapter.findOne<{ userId: string }>({
                    model: 'passkey',
                    where: [{ field: 'credentialID', value: credentialId }],
                  })
                : null;
            // Another person's passkey (or none) never completes this person's sign-in.
            if (owned?.userId !== pending.userId) {
              throw new APIError('UNAUTHORIZED', { message: 'Passkey not found', code: 'PASSKEY_NOT_FOUND' });
            }
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === PASSKEY_SIGN_IN,
          handler: createAuthMiddleware(async (ctx) => {
            const opened = ctx.context.newSession;
            if (!opened) return;
            const identifier = await ctx.getSignedCookie(
              ctx.context.createAuthCookie(TWO_FACTOR_COOKIE).name,
              ctx.context.secret,
            );
            // Used once: a second passkey sign-in on the same step (in parallel) loses its session.
            const consumed = identifier ? await ctx.context.internalAdapter.consumeVerificationValue(identifier) : null;
            expireCookie(ctx, ctx.context.createAuthCookie(TWO_FACTOR_COOKIE));
            if (!consumed || consumed.value !== opened.user.id) {
              await ctx.context.internalAdapter.deleteSession(opened.session.token);
              throw expired();
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
