/** Payment data of the demo: the accounts that have a payment customer and a subscription. */
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { user } from '../../db/schema/index.js';
import { type DemoContext, idOf } from './context.js';

type PaymentSpec = { stripeCustomerId: string; subscriptionStatus: 'active' | 'past_due' };

/** By e-mail. medic@demo.test's past-due subscription is the demo's payment issue. */
const DEMO_PAYMENT_CUSTOMERS: Readonly<Record<string, PaymentSpec>> = {
  'owner@demo.test': { stripeCustomerId: 'cus_demo_owner', subscriptionStatus: 'active' },
  'medic@demo.test': { stripeCustomerId: 'cus_demo_medic', subscriptionStatus: 'past_due' },
};

/** Gives the paying accounts their payment customer and subscription state. The accounts must exist. */
export async function seedPayment(db: Database, { userIds }: DemoContext): Promise<void> {
  for (const [email, payment] of Object.entries(DEMO_PAYMENT_CUSTOMERS)) {
    await db
      .update(user)
      .set(payment)
      .where(eq(user.id, idOf(userIds, email)));
  }
}
