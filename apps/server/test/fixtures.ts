import { eq } from 'drizzle-orm';
import { LICENSE_VERSION } from '@patientsim/domain/common/constants';
import type { Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../src/db/client.js';
import { licenseAcceptance, user } from '../src/db/schema/auth.js';
import { group, groupMember } from '../src/db/schema/groups.js';
import { type Auth, createAccountsAuth } from '../src/identity/auth.js';
import { openViewSession } from '../src/identity/impersonation.js';
import { hashPassword } from '../src/identity/password.js';
import { newId } from '../src/lib/ids.js';
import { createAccount, loadIdentity } from '../src/modules/users/users.service.js';
import { buildLicenseAcceptance, buildUser, type UserOverrides } from '../src/seed/builders.js';
import type { TestApp } from './build-app.js';
import { createClient } from './client.js';
import { signInAs } from './sign-in-client.js';

export const TEST_PASSWORD = 'Test-Pass-2026';
let passwordHash: Promise<string> | null = null;

const authByDatabase = new WeakMap<Database, Auth>();

/** better-auth on `db`, once per database: fixtures create accounts where no app may be built. */
function authFor(db: Database): Auth {
  const auth = authByDatabase.get(db) ?? createAccountsAuth(db);
  authByDatabase.set(db, auth);
  return auth;
}

export type InsertUserOptions = Omit<UserOverrides, 'id' | 'emailVerified' | 'licenseVersion'> & {
  verified?: boolean;
  license?: boolean;
  password?: string;
};

/**
 * Inserts a user with a password (verified and license accepted unless told otherwise). Any other
 * column of the user row (a payment customer, a product type) can be given too.
 */
export async function insertUser(
  db: Database,
  { verified = true, license = true, password, role = 'STUDENT', ...overrides }: InsertUserOptions = {},
) {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const id = newId();
  const values = buildUser({
    email: `user-${newId()}@example.test`,
    givenName: 'Test',
    familyName: 'User',
    ...overrides,
    role,
    emailVerified: verified,
    licenseVersion: license ? LICENSE_VERSION : null,
  });
  // One hash serves every account with the usual test password: hashing is deliberately slow.
  const credential = password
    ? { password, hash: await hashPassword(password) }
    : { password: TEST_PASSWORD, hash: await passwordHash };
  await db.transaction((tx) => createAccount(tx, { auth: authFor(db), credential, values: { ...values, id } }));
  if (license) await db.insert(licenseAcceptance).values(buildLicenseAcceptance({ userId: id }));
  return { id, email: values.email, password: password ?? TEST_PASSWORD, role };
}

/** Inserts a user who holds `role` both as the global role and in the organisation (or sub-group) `groupId`. */
export async function insertMember(db: Database, groupId: string, options: InsertUserOptions & { role: Role }) {
  const member = await insertUser(db, options);
  await addMember(db, groupId, member.id, options.role);
  return member;
}

/** Inserts a member of `groupId` (see `insertMember`) and signs them in. */
export async function signInNewMember(t: TestApp, groupId: string, options: InsertUserOptions & { role: Role }) {
  const member = await insertMember(t.db, groupId, options);
  return { ...(await signInAs(t, member.email, member.password)), email: member.email };
}

/** Inserts an organisation (or a sub-group with `parentId`), by default under a name of its own. */
export async function insertGroup(db: Database, values: Partial<typeof group.$inferInsert> = {}) {
  const id = values.id ?? newId();
  await db.insert(group).values({ name: `Organisation ${id}`, ...values, id });
  return id;
}

export async function addMember(db: Database, groupId: string, userId: string, role: Role) {
  await db.insert(groupMember).values({ groupId, userId, role });
}

export async function findUser(db: Database, id: string) {
  const [row] = await db.select().from(user).where(eq(user.id, id));
  return row;
}

/**
 * A client holding a View-As-User token (decision 0012's `act` claim): the super admin signed in
 * as `viewer` viewing the product as the user `userId`, in a view session of its own started from
 * the viewer's session (as `POST /auth/loginAs` opens one; no check of who may be viewed).
 */
export async function viewingAs(
  t: TestApp,
  { userId, viewer, ip = '10.90.0.1' }: { userId: string; viewer: { userId: string; payload: { sid: string } }; ip?: string },
) {
  const identity = await loadIdentity(t.db, userId);
  if (!identity) throw new Error(`no identity for ${userId}`);
  const { sessionId } = await openViewSession(t.db, {
    superAdminId: viewer.userId,
    parentSessionId: viewer.payload.sid,
    seconds: 600,
    ipAddress: ip,
  });
  const { idToken } = await t.app.tokens.sign(identity.claims, { sessionId, act: { sub: viewer.userId }, maxSeconds: 600 });
  const client = createClient(t.app, { ip });
  client.setBearer(idToken);
  return client;
}
