import type { AppMetadata } from '../identity/token.schemas.js';

/**
 * The payment provider's subscription states in which a person's own subscription is active
 * (decision 0035): paid up, or in its trial. Past due, unpaid, canceled, incomplete, paused or none
 * are not.
 */
export const ACTIVE_SUBSCRIPTION_STATUSES: readonly string[] = ['active', 'trialing'];

export function isSubscriptionActive(status: string | null | undefined): boolean {
  return status !== null && status !== undefined && ACTIVE_SUBSCRIPTION_STATUSES.includes(status);
}

/**
 * Whether a member reaches the content (the cases) of the organisation `orgId`: a seat-holder always;
 * a subscribed member (invited through a subscription) only while their own subscription is active.
 */
export function reachesOrganisationContent(
  { subscribedOrgs, subscriptionActive }: Pick<AppMetadata, 'subscribedOrgs' | 'subscriptionActive'>,
  orgId: string,
): boolean {
  return subscriptionActive || !subscribedOrgs.includes(orgId);
}
