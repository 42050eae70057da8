import Stripe from 'stripe';
import type { Env } from '../../config/env.js';
import type { Database } from '../../db/client.js';
import { AppError, assert } from '../../lib/errors.js';
import type { RequestUser } from '../../lib/access.js';
import { findUserById } from '../users/users.service.js';

export type BillingPortal = { createSession: (customerId: string, returnUrl: string) => Promise<string> };

/** The payment provider's customer portal through the official Stripe SDK (decision 16). */
export function createBillingPortal(env: Pick<Env, 'STRIPE_SECRET_KEY' | 'STRIPE_API_BASE'>): BillingPortal | null {
  if (!env.STRIPE_SECRET_KEY) return null;
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
  const stripe = new Stripe(env.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 1,
    timeout: 10_000,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
  return {
    async createSession(customerId, returnUrl) {
      const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      return session.url;
    },
  };
}

/** A billing-portal session for the signed-in user's payment customer. */
export async function createBillingPortalSession({
  db,
  portal,
  actor,
  publicUrl,
}: {
  db: Database;
  portal: BillingPortal | null;
  actor: RequestUser;
  publicUrl: string;
}) {
  const user = await findUserById(db, actor.id);
  assert(user?.stripeCustomerId, 'NO_PAYMENT_CUSTOMER');
  if (!portal) throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
  try {
    return await portal.createSession(user.stripeCustomerId, `${publicUrl}/auth/account/profile`);
  } catch (error) {
    throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', {
      details: error instanceof Stripe.errors.StripeError ? { type: error.type } : undefined,
    });
  }
}
