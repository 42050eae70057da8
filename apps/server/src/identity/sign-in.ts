import { createHmac } from 'node:crypto';
import { generateId } from 'better-auth';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { account, session, user } from '../db/schema/auth.js';
import { newId } from '../lib/ids.js';
import type { Auth } from './auth.js';
import { hashPassword, verifyPassword } from './password.js';

/*
 * The sign-in path, cut to what it must do (decision 0016): one query for the account and its
 * password hash, the argon2id check on libuv's thread pool, one insert for the session. better-auth
 * still owns the session: the row, its secondary-storage entries and the signed cookie are written
 * exactly as its own sign-in writes them, so its session reads, renewals, sign-out and revocations
 * work on them unchanged (sign-in.test.ts holds that to the pinned version). Its own sign-in
 * endpoint read the user twice and the credential apart, and spent as long again in endpoint and
 * adapter machinery, all on the one thread that also runs the embedded database.
 */

export type SignInUser = typeof user.$inferSelect;

/** One row: the account behind an address and its password hash (null without a credential). */
const findAccountQuery = (db: Database) =>
  db
    .select({ user, passwordHash: account.password })
    .from(user)
    .leftJoin(account, and(eq(account.userId, user.id), eq(account.providerId, 'credential'), eq(account.accountId, user.id)))
    .where(eq(user.email, sql.placeholder('email')))
    .limit(1)
    .prepare('sign_in_account');

const insertSessionQuery = (db: Database) =>
  db
    .insert(session)
    .values({
      id: sql.placeholder('id'),
      token: sql.placeholder('token'),
      userId: sql.placeholder('userId'),
      expiresAt: sql.placeholder('expiresAt'),
      createdAt: sql.placeholder('createdAt'),
      updatedAt: sql.placeholder('updatedAt'),
      ipAddress: sql.placeholder('ipAddress'),
      userAgent: sql.placeholder('userAgent'),
    })
    .prepare('sign_in_session');

// Built once per database: the statements are the same on every sign-in.
const prepared = new WeakMap<
  Database,
  { findAccount: ReturnType<typeof findAccountQuery>; insertSession: ReturnType<typeof insertSessionQuery> }
>();
function statementsFor(db: Database) {
  let statements = prepared.get(db);
  if (!statements) {
    statements = { findAccount: findAccountQuery(db), insertSession: insertSessionQuery(db) };
    prepared.set(db, statements);
  }
  return statements;
}

/**
 * The account whose address and password these are, or null. An unknown address, or an account
 * without a password, costs one hash like a wrong password does, so that the answer's timing does
 * not tell which addresses have accounts.
 */
export async function checkPassword(db: Database, { email, password }: { email: string; password: string }) {
  const [row] = await statementsFor(db).findAccount.execute({ email: email.toLowerCase() });
  if (!row?.passwordHash) {
    await hashPassword(password);
    return null;
  }
  return (await verifyPassword({ hash: row.passwordHash, password })) ? row.user : null;
}

/** An entry of better-auth's list of a user's sessions in secondary storage (what revocation walks). */
type SessionReference = { token: string; expiresAt: number };

/** Seconds from `now` until `at`, as better-auth counts a secondary-storage entry's lifetime. */
const secondsUntil = (at: number, now: number) => Math.max(0, Math.floor((at - now) / 1000));

/** The expiry of a stored session list's first entry (better-auth writes `[{"token":…,"expiresAt":…},…]`). */
const FIRST_EXPIRY = /^\[\{"token":"[^"]*","expiresAt":(\d+)\}/;

/** The expiry of a stored session list's last entry, read from the end of the text. */
function lastExpiryOf(listed: string): number {
  const key = '"expiresAt":';
  const at = listed.lastIndexOf(key);
  return listed.endsWith('}]') && at >= 0 ? Number(listed.slice(at + key.length, -2)) : Number.NaN;
}

/**
 * better-auth's stored list of a user's sessions with `added`, and when the list's last session
 * expires. better-auth keeps the list sorted by expiry and drops expired entries whenever it writes
 * it; so does this, but while the first entry is live and `added` expires last, it appends to the
 * stored text instead of parsing and rewriting it. An account signed in many times over (a shared
 * demo account) holds hundreds of entries, and rewriting them all cost each of its sign-ins about
 * as much as the session insert, and more as the list grew.
 */
export function addSessionReference(
  listed: unknown,
  added: SessionReference,
  now: number,
): { list: string; lastExpiresAt: number } {
  if (typeof listed === 'string') {
    const first = FIRST_EXPIRY.exec(listed);
    if (first && Number(first[1]) > now && lastExpiryOf(listed) <= added.expiresAt) {
      return { list: `${listed.slice(0, -1)},${JSON.stringify(added)}]`, lastExpiresAt: added.expiresAt };
    }
  }
  let references: SessionReference[] = [];
  try {
    const parsed: unknown = typeof listed === 'string' ? JSON.parse(listed) : null;
    if (Array.isArray(parsed)) references = (parsed as SessionReference[]).filter((reference) => reference.expiresAt > now);
  } catch {
    // An unreadable list is replaced, as better-auth replaces it.
  }
  references.push(added);
  references.sort((a, b) => a.expiresAt - b.expiresAt);
  return { list: JSON.stringify(references), lastExpiresAt: references.at(-1)!.expiresAt };
}

/**
 * Opens a better-auth session for `user` and returns the Set-Cookie line that carries it: the
 * session row, then (with secondary storage) the user's session list and the session entry, as
 * better-auth's own sign-in writes them.
 */
export async function openSession({
  auth,
  db,
  user: owner,
  ipAddress,
  userAgent,
}: {
  auth: Auth;
  db: Database;
  user: SignInUser;
  ipAddress: string;
  userAgent: string;
}): Promise<{ cookie: string; sessionId: string }> {
  const context = await auth.$context;
  const now = Date.now();
  const expiresIn = context.sessionConfig.expiresIn;
  const values = {
    id: newId(),
    token: generateId(32),
    userId: owner.id,
    expiresAt: new Date(now + expiresIn * 1000),
    createdAt: new Date(now),
    updatedAt: new Date(now),
    ipAddress,
    userAgent,
  };
  await statementsFor(db).insertSession.execute(values);

  const storage = context.secondaryStorage;
  if (storage) {
    const listKey = `active-sessions-${owner.id}`;
    const expiresAt = values.expiresAt.getTime();
    // The list first: revocation finds a session in storage only through it, so an entry must never
    // exist unlisted (a listed token that is missing is harmless).
    const { list, lastExpiresAt } = addSessionReference(await storage.get(listKey), { token: values.token, expiresAt }, now);
    await storage.set(listKey, list, secondsUntil(lastExpiresAt, now));
    await storage.set(values.token, JSON.stringify({ session: values, user: owner }), secondsUntil(expiresAt, now));
  }

  const { name, attributes } = context.authCookies.sessionToken;
  const signature = createHmac('sha256', context.secret).update(values.token).digest('base64');
  return {
    cookie: serializeCookie(name, encodeURIComponent(`${values.token}.${signature}`), { ...attributes, maxAge: expiresIn }),
    sessionId: values.id,
  };
}

type CookieAttributes = {
  maxAge?: number | undefined;
  domain?: string | undefined;
  path?: string | undefined;
  httpOnly?: boolean | undefined;
  secure?: boolean | undefined;
  sameSite?: string | undefined;
};

/** A Set-Cookie line with the attributes in better-auth's order. */
function serializeCookie(name: string, value: string, attributes: CookieAttributes): string {
  let cookie = `${name}=${value}`;
  if (attributes.maxAge !== undefined) cookie += `; Max-Age=${Math.floor(attributes.maxAge)}`;
  if (attributes.domain) cookie += `; Domain=${attributes.domain}`;
  if (attributes.path) cookie += `; Path=${attributes.path}`;
  if (attributes.httpOnly) cookie += '; HttpOnly';
  if (attributes.secure || name.startsWith('__Secure-')) cookie += '; Secure';
  if (attributes.sameSite) cookie += `; SameSite=${attributes.sameSite.charAt(0).toUpperCase()}${attributes.sameSite.slice(1)}`;
  return cookie;
}
