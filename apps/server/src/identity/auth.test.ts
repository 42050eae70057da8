import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { account, user } from '../db/schema/auth.js';
import { newId } from '../lib/ids.js';
import { openTestDatabase } from '../../test/build-app.js';
import { createAccountInTransaction, createAccountsAuth, type NewAccountValues } from './auth.js';
import { hashPassword, verifyPassword } from './password.js';

/**
 * Account creation goes through better-auth's sign-up, writing in the caller's transaction
 * (decision 0059): what the transaction undoes, better-auth's rows included, leaves nothing.
 */
const database = await openTestDatabase();
afterAll(() => database.drop());
const { db } = database;
const auth = createAccountsAuth(db);
const password = 'Created-Pass-2026';
const credential = { password, hash: await hashPassword(password) };

function newValues(email: string): NewAccountValues {
  return {
    id: newId(),
    email,
    name: 'Cre Ated',
    givenName: 'Cre',
    familyName: 'Ated',
    emailVerified: true,
    role: 'ADMIN',
    productType: 'NURSING',
  };
}

const credentialsOf = (userId: string) => db.select().from(account).where(eq(account.userId, userId));

describe('createAccountInTransaction', () => {
  it('writes the user with the columns the product gives and a credential with the hash made beforehand', async () => {
    const values = newValues('created@example.test');
    await db.transaction((tx) => createAccountInTransaction(auth, tx, { values, credential }));
    const [created] = await db.select().from(user).where(eq(user.id, values.id));
    expect(created).toMatchObject({ email: values.email, emailVerified: true, role: 'ADMIN', productType: 'NURSING' });
    const credentials = await credentialsOf(values.id);
    expect(credentials.map((row) => [row.providerId, row.password])).toEqual([['credential', credential.hash]]);
    expect(await verifyPassword({ hash: credentials[0]?.password ?? '', password })).toBe(true);
  });

  it('leaves no user and no credential when the transaction fails after it', async () => {
    const values = newValues('undone@example.test');
    const failure = new Error('a later step of the same transaction failed');
    await expect(
      db.transaction(async (tx) => {
        await createAccountInTransaction(auth, tx, { values, credential });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await db.select().from(user).where(eq(user.email, values.email))).toEqual([]);
    expect(await credentialsOf(values.id)).toEqual([]);
  });

  it('refuses an address that has an account with EMAIL_TAKEN and writes nothing', async () => {
    const first = newValues('taken@example.test');
    await db.transaction((tx) => createAccountInTransaction(auth, tx, { values: first, credential }));
    const second = newValues('taken@example.test');
    await expect(
      db.transaction((tx) => createAccountInTransaction(auth, tx, { values: second, credential })),
    ).rejects.toMatchObject({ code: 'EMAIL_TAKEN' });
    expect((await db.select().from(user).where(eq(user.email, first.email))).map((row) => row.id)).toEqual([first.id]);
    expect(await credentialsOf(second.id)).toEqual([]);
  });
});
