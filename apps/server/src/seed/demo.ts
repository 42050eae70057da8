/**
 * The demo data of the product (the demo-data contract): known accounts, organisations,
 * invitations, a scenario library, templates, tutorials and notifications. The server seeds it
 * into an empty database at start unless `SEED=none`. Each subject lives in `demo/`.
 */
import type { Database } from '../db/client.js';
import { user } from '../db/schema/index.js';
import { createAccountsAuth } from '../identity/auth.js';
import { hashPassword } from '../identity/password.js';
import { newId } from '../lib/ids.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedAccounts } from './demo/accounts.js';
import { seedCases } from './demo/cases.js';
import { type DemoContext, mapValues } from './demo/context.js';
import { seedInvitations } from './demo/invitations.js';
import { seedMemberships } from './demo/memberships.js';
import { seedNotifications } from './demo/notifications.js';
import { DEMO_ORGANISATIONS, DEMO_SUBGROUPS, seedOrganisations } from './demo/organisations.js';
import { seedPayment } from './demo/payment.js';
import { seedTutorials } from './demo/tutorials.js';

// The public face of the demo seed, for the server's start and the tests.
export { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo/accounts.js';
export { APP_LAB_ORG_NAMES, PUBLIC_CONTENT_ORG_NAMES } from './demo/organisations.js';
export { SEED_ASSETS_DIR } from './media-assets.js';

/** Whether the database holds no user yet (the server seeds only then). */
export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: user.id }).from(user).limit(1);
  return row === undefined;
}

/** Inserts the whole demo data set in one transaction. `now` anchors every relative date. */
export async function seedDemo(db: Database, { now = new Date() }: { now?: Date } = {}): Promise<void> {
  // Hashing is deliberately slow: one hash serves every demo account.
  const credential = { password: DEMO_PASSWORD, hash: await hashPassword(DEMO_PASSWORD) };
  const auth = createAccountsAuth(db);
  const context: DemoContext = {
    now,
    userIds: new Map(DEMO_ACCOUNTS.map((demo) => [demo.email, newId()])),
    orgIds: mapValues(DEMO_ORGANISATIONS, () => newId()),
    subgroupIds: mapValues(DEMO_SUBGROUPS, () => newId()),
  };
  // In the order of the foreign keys: key owners before organisations, both before memberships.
  await db.transaction(async (tx) => {
    await seedAccounts(tx, context, { auth, credential });
    await seedPayment(tx, context);
    await seedOrganisations(tx, context);
    await seedMemberships(tx, context);
    await seedInvitations(tx, context);
    await seedTutorials(tx);
    const riversideCases = await seedCases(tx, context);
    await seedNotifications(tx, context, riversideCases);
  });
}
