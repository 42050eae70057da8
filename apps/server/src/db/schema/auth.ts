import { relations, sql } from 'drizzle-orm';
import type { Role } from '@patientsim/domain/roles/roles';
import { type AnyPgColumn, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** better-auth's user, extended with the product's fields. */
export const user = pgTable(
  'user',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    givenName: text('given_name').notNull().default(''),
    familyName: text('family_name').notNull().default(''),
    /** Global role: STUDENT, USER, ADMIN or SUPER_ADMIN. */
    role: text('role').$type<Role>().notNull().default('STUDENT'),
    productType: text('product_type').notNull().default('EMS'),
    activeOrgId: text('active_org_id'),
    stripeCustomerId: text('stripe_customer_id'),
    /** Subscription state from the payment provider: active, past_due, unpaid, canceled, or null. */
    subscriptionStatus: text('subscription_status'),
    licenseVersion: text('license_version'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * While `email` awaits verification after a change, the last address the user proved. The
     * account goes back to it when the real owner of `email` proves that address first.
     */
    previousEmail: text('previous_email'),
    /**
     * better-auth's two-factor flag: true while the person has any second factor (a verified
     * authenticator app or a passkey), so that its sign-in hook asks for one (decision 0066).
     */
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  },
  (t) => [
    uniqueIndex('user_email_unique').on(t.email),
    // User search over e-mail and names (wildcard-wrapped ILIKE), see the groups table for fastupdate.
    index('user_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')).with({ fastupdate: false }),
    index('user_given_name_trgm_idx').using('gin', t.givenName.op('gin_trgm_ops')).with({ fastupdate: false }),
    index('user_family_name_trgm_idx').using('gin', t.familyName.op('gin_trgm_ops')).with({ fastupdate: false }),
    // The few deleted accounts: a search of an organisation's members leaves them out by this
    // index alone, without looking up the account of every membership that matches.
    index('user_deleted_idx').on(t.id).where(sql`${t.deletedAt} is not null`),
  ],
);

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /**
     * A View-As-User session's: the super admin's session it was started from. Signing that one
     * out ends the view with it (identity/impersonation.ts).
     */
    parentSessionId: text('parent_session_id').references((): AnyPgColumn => session.id, { onDelete: 'cascade' }),
    /**
     * How the session was signed in (RFC 8176 values, decision 0066): ['pwd'], ['pwd', 'otp'] or
     * ['pwd', 'hwk']; set by better-auth's session hook from the endpoint that opened it.
     */
    amr: text('amr').array(),
  },
  (t) => [
    uniqueIndex('session_token_unique').on(t.token),
    index('session_user_idx').on(t.userId),
    index('session_parent_idx').on(t.parentSessionId),
  ],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_user_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

export const jwks = pgTable('jwks', {
  id: text('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  alg: text('alg'),
  crv: text('crv'),
});

/**
 * "This wasn't me" links: after an organisation changed an account's address, the address the
 * account proved last can take it back until `expires_at`. Each row is one single-use link; the
 * links of one change share `changed_at` (a password reset asked for the old address adds one).
 */
export const emailReclaim = pgTable(
  'email_reclaim',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The address the account proved last, which the link gives back. */
    email: text('email').notNull(),
    /** The address the organisation moved the account to. */
    newEmail: text('new_email').notNull(),
    changedById: text('changed_by_id').references(() => user.id, { onDelete: 'set null' }),
    orgId: text('org_id'),
    /** Who made the change, as the notice said it (names and organisations may change later). */
    changedBy: text('changed_by').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_reclaim_token_hash_unique').on(t.tokenHash),
    index('email_reclaim_email_idx').on(t.email),
    index('email_reclaim_user_idx').on(t.userId),
  ],
);

/** Every acceptance of a license version (decision 14). */
export const licenseAcceptance = pgTable(
  'license_acceptance',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
  },
  (t) => [index('license_acceptance_user_idx').on(t.userId)],
);

/** Single-use choose-password links for provisioned accounts (decision 15). */
export const provisioning = pgTable('provisioning', {
  id: text('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  email: text('email').notNull(),
  givenName: text('given_name').notNull(),
  familyName: text('family_name').notNull(),
  orgId: text('org_id').notNull(),
  role: text('role').$type<Role>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// better-auth's joins (identity/auth.ts) read a user with its accounts, and a session with its user,
// in one statement through these relations; the names are the ones its drizzle adapter looks for.
/**
 * better-auth's two-factor plugin: a person's authenticator app (its secret and recovery codes,
 * both encrypted with the server's secret) and the plugin's count of failed codes (decision 0066).
 * `verified` stays false until the first code proves the app holds the secret.
 */
export const twoFactor = pgTable(
  'two_factor',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [uniqueIndex('two_factor_user_unique').on(t.userId), index('two_factor_secret_idx').on(t.secret)],
);

/** better-auth's passkey plugin: a person's WebAuthn credentials (decision 0066). */
export const passkey = pgTable(
  'passkey',
  {
    id: text('id').primaryKey(),
    name: text('name'),
    publicKey: text('public_key').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    credentialID: text('credential_id').notNull(),
    counter: integer('counter').notNull(),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull(),
    transports: text('transports'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    aaguid: text('aaguid'),
  },
  (t) => [index('passkey_user_idx').on(t.userId), uniqueIndex('passkey_credential_unique').on(t.credentialID)],
);

export const userRelations = relations(user, ({ many }) => ({ accounts: many(account), sessions: many(session) }));
export const accountRelations = relations(account, ({ one }) => ({
  user: one(user, { fields: [account.userId], references: [user.id] }),
}));
export const sessionRelations = relations(session, ({ one }) => ({
  user: one(user, { fields: [session.userId], references: [user.id] }),
}));
