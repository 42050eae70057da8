import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { runWithTransaction } from '@better-auth/core/context';
import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { eq, sql } from 'drizzle-orm';
import { jwt } from 'better-auth/plugins/jwt';
import { twoFactor } from 'better-auth/plugins/two-factor';
import { oauthProvider } from '@better-auth/oauth-provider';
import { passkey } from '@better-auth/passkey';
import {
  ID_TOKEN_AUDIENCE,
  LICENSE_VERSION,
  PASSWORD_RESET_TOKEN_SECONDS,
  TOKEN_LIFETIME_SECONDS,
} from '@patientsim/domain/common/constants';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@patientsim/domain/auth/password-policy';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { isRole } from '@patientsim/domain/roles/roles';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Database } from '../db/client.js';
import { prepared } from '../db/prepared.js';
import {
  account,
  jwks,
  passkey as passkeyTable,
  session,
  twoFactor as twoFactorTable,
  user,
  verification,
} from '../db/schema/auth.js';
import {
  oauthAccessToken,
  oauthClient,
  oauthClientAssertion,
  oauthClientResource,
  oauthConsent,
  oauthRefreshToken,
  oauthResource,
} from '../db/schema/oauth.js';
import { AppError } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import { createRateLimiter } from '../lib/rate-limiter.js';
import type { Mailer } from '../mail/mailer.js';
import { passwordResetEmail } from '../mail/templates.js';
import { createDeviceCookies } from './device-cookies.js';
import { resetAddressOf, restoreProvenAddress } from './email-ownership.js';
import { hashPassword, verifyPassword } from './password.js';
import { passkeyAsSecondStep } from './second-factor.js';
import type { SessionStorage } from './session-storage.js';
import { signInLimits, type SignInLimitsOptions } from './sign-in-limits.js';

export const AUTH_BASE_PATH = '/api/auth';
/** better-auth's cookie names start with it (`__Secure-` in front over https). */
export const COOKIE_PREFIX = 'patientsim';
const SESSION_SECONDS = 7 * 24 * 3600;

/** Set while `createResetToken` runs: the reset token goes to it instead of into an e-mail. */
const resetTokenReceiver = new AsyncLocalStorage<(token: string) => void>();

/** A new account's user row: its id and every column better-auth's sign-up leaves to the product. */
export type NewAccountValues = typeof user.$inferInsert & { id: string; name: string };

/** A new password and its hash, made before the transaction that creates the account. */
export type NewCredential = { password: string; hash: string };

/** Set while `createAccountInTransaction` runs: what better-auth's sign-up writes beyond its own fields. */
const accountInCreation = new AsyncLocalStorage<{ values: NewAccountValues; passwordHash: string }>();

/** How better-auth reaches the product's tables, for the whole database or for one transaction. */
const adapterConfig = {
  provider: 'pg',
  schema: {
    ...{ user, session, account, verification, jwks },
    ...{ twoFactor: twoFactorTable, passkey: passkeyTable },
    ...{
      oauthClient,
      oauthRefreshToken,
      oauthAccessToken,
      oauthConsent,
      oauthResource,
      oauthClientResource,
      oauthClientAssertion,
    },
  },
} as const;

/** The product's sign-in page, where the OAuth provider sends people who are not signed in yet. */
export const LOGIN_PAGE_PATH = '/auth/login';
/** The page where a person allows an application that asks for consent. */
export const CONSENT_PAGE_PATH = '/auth/oauth/consent';
/** The scopes applications may ask for: OpenID Connect's, and refresh tokens for confidential clients. */
export const OAUTH_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

/**
 * The claims (spec section 3) of a user for another application's ID token and userinfo, for the
 * scopes it was granted. Null for an unknown user.
 */
export type ApplicationClaims = (userId: string, scopes: readonly string[]) => Promise<Record<string, unknown> | null>;

export type AuthOptions = {
  db: Database;
  publicUrl: string;
  secret: string;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Where sessions are looked up before the database (Redis, shared by the processes); none reads the database. */
  sessionStorage?: SessionStorage | undefined;
  /** Called after better-auth changes a user (e-mail verified, password, ...). */
  onUserChange?: () => void;
  /** The sign-in limits (decision 0039), counted before better-auth verifies a password. */
  limits: SignInLimitsOptions;
  /** The product claims given to the platform's applications (decision 0065); none without it. */
  applicationClaims?: ApplicationClaims;
  /**
   * Whether a signed-in person must still prove or set up a second factor before an application
   * gets a code for them (decision 0066); never without it.
   */
  isSecondFactorMissing?: (userId: string, amr: readonly string[]) => Promise<boolean>;
};

/** How a session was signed in, by the better-auth endpoint that opened it (RFC 8176 values). */
const AMR_OF_SIGN_IN_PATH: Readonly<Record<string, readonly string[]>> = {
  '/sign-in/email': ['pwd'],
  // The second step of a sign-in (after the password), or the first code of an app being set up.
  '/two-factor/verify-totp': ['pwd', 'otp'],
  '/two-factor/verify-backup-code': ['pwd', 'otp'],
  // A passkey is only ever a second step here: the product's route requires the password's step.
  '/passkey/verify-authentication': ['pwd', 'hwk'],
};

/**
 * The `amr` of a session being opened: by the endpoint opening it; a session that replaces the
 * caller's (a password change) keeps what the caller's proved; anything else a password.
 */
function amrOfNewSession(context: { path?: string; context: { session?: { session: object } | null } } | null): string[] {
  const byPath = context?.path ? AMR_OF_SIGN_IN_PATH[context.path] : undefined;
  if (byPath) return [...byPath];
  const replaced = (context?.context.session?.session as { amr?: string[] | null } | undefined)?.amr;
  return replaced && replaced.length > 0 ? replaced : ['pwd'];
}

/**
 * better-auth owns credentials, sessions, verification and reset tokens, and the signing keys.
 * Its HTTP handler is exposed only for the e-mail verification link and the JWKS; everything
 * else goes through the product's own validated, rate-limited routes calling `auth.api`.
 */
export function createAuth({
  db,
  publicUrl,
  secret,
  mailer,
  log,
  sessionStorage,
  onUserChange,
  limits,
  applicationClaims,
  isSecondFactorMissing,
}: AuthOptions) {
  const publicOrigin = new URL(publicUrl);
  const sendInBackground = (promise: Promise<void>, what: string) => {
    // Sending is not awaited so that known and unknown addresses answer in the same time.
    promise.catch((error: unknown) => log.error({ err: error }, `could not send the ${what} email`));
  };
  return betterAuth({
    appName: 'PatientSim',
    baseURL: publicUrl,
    basePath: AUTH_BASE_PATH,
    secret,
    database: drizzleAdapter(db, adapterConfig),
    telemetry: { enabled: false },
    logger: {
      log: (level, message, ...args) => {
        const target = level === 'error' ? log.error.bind(log) : level === 'warn' ? log.warn.bind(log) : log.debug.bind(log);
        target({ args }, `auth: ${message}`);
      },
    },
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      // A user with its accounts (the sign-in) and a session with its user in one statement each,
      // through the drizzle schema's relations.
      database: { generateId: () => newId(), joins: true },
    },
    user: {
      additionalFields: {
        givenName: { type: 'string', required: false, defaultValue: '' },
        familyName: { type: 'string', required: false, defaultValue: '' },
        role: { type: 'string', required: false, defaultValue: 'STUDENT', input: false },
        productType: { type: 'string', required: false, defaultValue: 'EMS', input: false },
        activeOrgId: { type: 'string', required: false, input: false },
        stripeCustomerId: { type: 'string', required: false, input: false },
        subscriptionStatus: { type: 'string', required: false, input: false },
        licenseVersion: { type: 'string', required: false, input: false },
        deletedAt: { type: 'date', required: false, input: false },
        previousEmail: { type: 'string', required: false, input: false },
      },
    },
    ...(sessionStorage ? { secondaryStorage: sessionStorage } : {}),
    session: {
      expiresIn: SESSION_SECONDS,
      updateAge: 24 * 3600,
      storeSessionInDatabase: true,
      additionalFields: { amr: { type: 'string[]', required: false, input: false } },
    },
    verification: { storeInDatabase: true },
    databaseHooks: {
      session: {
        create: {
          // A deleted account keeps its address and password row but never gets a session, whatever
          // the way in; it answers like a wrong password.
          // One read by primary key a session opened, built once (db/prepared.ts), not on every sign-in.
          before: async (created, context) => {
            const [owner] = await prepared(db, 'session_owner_deleted_at', (name) =>
              db
                .select({ deletedAt: user.deletedAt })
                .from(user)
                .where(eq(user.id, sql.placeholder('userId')))
                .prepare(name),
            ).execute({ userId: created.userId });
            if (!owner || owner.deletedAt) throw new APIError('UNAUTHORIZED', { message: 'Invalid email or password' });
            // How it was signed in, from the endpoint that opens it: the ID token's `amr` (decision 0066).
            return { data: { ...created, amr: amrOfNewSession(context) } };
          },
        },
      },
      user: {
        create: {
          // Sign-up takes only what a client may send; the product's account creation gives the
          // rest (its id, role, product type, active organisation, whether the address is proven).
          before: async (created) => {
            const creating = accountInCreation.getStore();
            if (creating) return { data: { ...created, ...creating.values } };
          },
        },
        update: {
          after: async () => {
            onUserChange?.();
          },
        },
      },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: false,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      // An account's hash is made before the transaction that writes it (createAccountInTransaction):
      // the embedded database runs one transaction at a time, which should not wait for a hash.
      password: {
        hash: async (password) => accountInCreation.getStore()?.passwordHash ?? hashPassword(password),
        verify: verifyPassword,
      },
      // Sign-up only creates the account; the product signs in afterwards, once its own writes are
      // done (an invitation's organisation, an unverified address's verification).
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: PASSWORD_RESET_TOKEN_SECONDS,
      sendResetPassword: async ({ user: target, token }) => {
        const receive = resetTokenReceiver.getStore();
        if (receive) {
          receive(token);
          return;
        }
        // Only to a proven address: never to one that awaits verification after an e-mail change.
        const to = resetAddressOf(target);
        if (!to) return;
        const url = `${publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
        sendInBackground(mailer.send(passwordResetEmail({ to, url })), 'password reset');
      },
      onPasswordReset: async ({ user: target }) => {
        await restoreProvenAddress(db, target.id);
      },
    },
    // E-mail verification is the product's own (identity/email-ownership.ts): better-auth's links
    // name only the address, so they would verify whoever holds it.
    plugins: [
      signInLimits(limits),
      // The second factor (decision 0066): an authenticator app with recovery codes, and passkeys,
      // asked for after the password. Reached only through the product's routes (modules/auth,
      // modules/account). No trusted-device cookie: the product never asks the plugin for one.
      twoFactor({
        issuer: 'PatientSim',
        totpOptions: { digits: 6, period: 30 },
        backupCodeOptions: { amount: 10, storeBackupCodes: 'encrypted' },
      }),
      passkey({ rpID: publicOrigin.hostname, rpName: 'PatientSim', origin: publicOrigin.origin }),
      passkeyAsSecondStep(),
      jwt({
        // ID tokens are minted by identity/tokens.ts with per-role lifetimes; the plugin's own
        // token on every session read would only cost a key decryption per request.
        disableSettingJwtHeader: true,
        jwks: { keyPairConfig: { alg: 'EdDSA', crv: 'Ed25519' } },
        jwt: { issuer: publicUrl, audience: ID_TOKEN_AUDIENCE },
      }),
      // PatientSim as the OpenID provider of the platform's other applications (decision 0065).
      // Clients are registered only by a super admin (modules/applications), never dynamically.
      oauthProvider({
        scopes: [...OAUTH_SCOPES],
        loginPage: `${publicUrl}${LOGIN_PAGE_PATH}`,
        consentPage: `${publicUrl}${CONSENT_PAGE_PATH}`,
        allowDynamicClientRegistration: false,
        // Registered through the access area's Applications page, by whoever the permission table lets.
        clientPrivileges: ({ user: caller }) => isRole(caller?.role) && hasPermission(caller.role, 'applications:manage'),
        grantTypes: ['authorization_code', 'refresh_token'],
        idTokenExpiresIn: TOKEN_LIFETIME_SECONDS,
        // The product's own steps after the password: a person who has not accepted the current
        // license goes back to the sign-in page, which shows it and then continues the authorization.
        postLogin: {
          page: `${publicUrl}${LOGIN_PAGE_PATH}`,
          // So does a person who must use a second factor and has not in this session (decision 0066).
          shouldRedirect: async ({ user: signedIn, session: current }) =>
            signedIn.licenseVersion !== LICENSE_VERSION ||
            ((await isSecondFactorMissing?.(signedIn.id, (current.amr as string[] | null | undefined) ?? [])) ?? false),
          consentReferenceId: () => undefined,
        },
        // The same claims, under the same plain names, as the product's own ID token (spec section 3).
        customIdTokenClaims: async ({ user: signedIn, scopes }) => (await applicationClaims?.(signedIn.id, scopes)) ?? {},
        customUserInfoClaims: async ({ user: signedIn, scopes }) => (await applicationClaims?.(signedIn.id, scopes)) ?? {},
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * better-auth set up as the server sets it up, on `db`, for creating accounts where no server runs
 * (the demo seed, the test fixtures). Creating an account signs nobody in and mails nothing: the
 * secret is a random one that signs nothing anyone reads, and the mailer refuses.
 */
export function createAccountsAuth(db: Database): Auth {
  const secret = randomBytes(32).toString('hex');
  const log = pino({ level: 'silent' });
  const mailer: Mailer = {
    send: () => Promise.reject(new Error('creating accounts sends no mail')),
    outbox: [],
    close: () => {},
  };
  return createAuth({
    db,
    publicUrl: 'http://localhost',
    secret,
    mailer,
    log,
    limits: {
      limiter: createRateLimiter(),
      deviceCookies: createDeviceCookies({ secret, isSecure: false }),
      onLockout: () => {},
    },
  });
}

/**
 * A password reset token for the account whose address is `email`, handed to the caller instead
 * of mailed: for a flow that has just proved the address with a link of its own (taking an
 * account back), so that the person goes straight on to choose a password. Null without such
 * an account.
 */
export async function createResetToken(auth: Auth, email: string): Promise<string | null> {
  const issued: { token: string | null } = { token: null };
  await resetTokenReceiver.run(
    (token) => {
      issued.token = token;
    },
    () => auth.api.requestPasswordReset({ body: { email, redirectTo: '/auth/reset-password' } }),
  );
  return issued.token;
}

/**
 * Runs `work` (calls of `auth.api`) in the caller's transaction `tx`: better-auth writes through the
 * adapter of the transaction it finds running (its own `runWithTransaction`), so its writes and the
 * caller's commit or roll back together.
 */
export async function runInAuthTransaction<T>(auth: Auth, tx: Database, work: () => Promise<T>): Promise<T> {
  return await runWithTransaction(drizzleAdapter(tx, adapterConfig)(auth.options), work);
}

/**
 * Creates a user with a password through better-auth's sign-up, in the caller's transaction `tx`:
 * better-auth checks the password's length, writes the user and its credential and runs its hooks,
 * all in `tx`, so that the caller's own writes (memberships, an invitation's settlement) and the
 * account commit or roll back together. `credential.hash` is the hash of `credential.password`
 * (identity/password.ts), made before the transaction. EMAIL_TAKEN when the address has an account.
 */
export async function createAccountInTransaction(
  auth: Auth,
  tx: Database,
  { values, credential }: { values: NewAccountValues; credential: NewCredential },
): Promise<void> {
  // better-auth writes through the adapter of the transaction it finds running (its own
  // `runWithTransaction`); an adapter over `tx` makes that transaction the caller's.
  const adapter = drizzleAdapter(tx, adapterConfig)(auth.options);
  const created = await accountInCreation
    .run({ values, passwordHash: credential.hash }, () =>
      runWithTransaction(adapter, () =>
        auth.api.signUpEmail({ body: { email: values.email, name: values.name, password: credential.password } }),
      ),
    )
    .catch((error: unknown) => {
      // better-auth reports a failed insert of the user without its cause; after its own look-up
      // of the address, that is the address taken by a sign-up that committed meanwhile.
      if (error instanceof APIError && error.body?.code === 'FAILED_TO_CREATE_USER') throw new AppError('EMAIL_TAKEN');
      throw error;
    });
  // An address that already has an account gets better-auth's stand-in answer, with another id.
  if (created.user.id !== values.id) throw new AppError('EMAIL_TAKEN');
}
