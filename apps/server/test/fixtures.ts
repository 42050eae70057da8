import { eq } from 'drizzle-orm';
import type { Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../src/db/client.js';
import { licenseAcceptance, user } from '../src/db/schema/auth.js';
import { group, groupMember } from '../src/db/schema/groups.js';
import { hashPassword } from '../src/identity/password.js';
import { newId } from '../src/lib/ids.js';
import { createAccount } from '../src/modules/users/users.service.js';

export const TEST_PASSWORD = 'Test-Pass-2026';
let passwordHash: Promise<string> | null = null;

/** Inserts a user with a password (verified and license accepted unless told otherwise). */
export async function insertUser(
  db: Database,
  {
    email = `user-${newId()}@example.test`,
    role = 'STUDENT',
    verified = true,
    license = true,
    givenName = 'Test',
    familyName = 'User',
    password,
  }: {
    email?: string;
    role?: Role;
    verified?: boolean;
    license?: boolean;
    givenName?: string;
    familyName?: string;
    password?: string;
  } = {},
) {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const id = newId();
  await createAccount(db, {
    passwordHash: password ? await hashPassword(password) : await passwordHash,
    values: {
      id,
      email,
      name: `${givenName} ${familyName}`,
      givenName,
      familyName,
      emailVerified: verified,
      role,
      licenseVersion: license ? '1.0' : null,
    },
  });
  if (license) await db.insert(licenseAcceptance).values({ id: newId(), userId: id, version: '1.0' });
  return { id, email, password: password ?? TEST_PASSWORD, role };
}

/** Inserts an organisation (or a sub-group with `parentId`). */
export async function insertGroup(db: Database, values: Partial<typeof group.$inferInsert> & { name: string }) {
  const id = values.id ?? newId();
  await db.insert(group).values({ ...values, id });
  return id;
}

export async function addMember(db: Database, groupId: string, userId: string, role: Role) {
  await db.insert(groupMember).values({ groupId, userId, role });
}

export async function findUser(db: Database, id: string) {
  const [row] = await db.select().from(user).where(eq(user.id, id));
  return row;
}
