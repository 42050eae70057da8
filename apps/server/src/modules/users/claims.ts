import { eq } from 'drizzle-orm';
import { isSubscriptionActive } from '@patientsim/domain/account/subscription';
import type { Role } from '@patientsim/domain/roles/roles';
import { permissionsOf } from '@patientsim/domain/roles/permissions';
import { isProductType, type ProductType } from '@patientsim/domain/product/product-types';
import type { GroupsDataEntry, IdTokenPayload } from '@patientsim/domain/identity/token.schemas';
import type { Database } from '../../db/client.js';
import { user } from '../../db/schema/auth.js';
import { findActiveMemberships } from './users.repository.js';

export type ProductClaims = Omit<IdTokenPayload, 'iss' | 'aud' | 'iat' | 'exp' | 'act' | 'sid'>;

const PAYMENT_ISSUE_STATUSES = new Set(['past_due', 'unpaid']);

const asProductType = (value: string, fallback: ProductType): ProductType => (isProductType(value) ? value : fallback);

/**
 * The product claims of a user (spec section 3, decision 5), read fresh from the database.
 * Active organisation (spec section 4): activeOrg if it is among the user's organisations,
 * otherwise the first; none without organisations. The role in the token is the
 * organisation-specific role of the active organisation, or the global role.
 */
export async function buildProductClaims(db: Database, userId: string): Promise<ProductClaims | null> {
  return (await loadIdentity(db, userId))?.claims ?? null;
}

/** The claims plus the license version the user accepted (decision 14). */
export async function loadIdentity(
  db: Database,
  userId: string,
): Promise<{ claims: ProductClaims; licenseVersion: string | null } | null> {
  const [row] = await db.select().from(user).where(eq(user.id, userId)).limit(1);
  if (!row || row.deletedAt) return null;
  const memberships = await findActiveMemberships(db, userId);
  const globalRole = row.role;
  const organisations = memberships.filter((m) => m.parentId === null);
  const active = organisations.find((m) => m.groupId === row.activeOrgId) ?? organisations[0] ?? null;
  const orgSpecificRoles: Record<string, Role> = {};
  for (const m of memberships) if (m.role) orgSpecificRoles[m.groupId] = m.role;
  const role = active?.role ?? globalRole;
  const groupsData: GroupsDataEntry[] = memberships.map((m) => ({
    _id: m.groupId,
    name: m.name,
    parent: m.parentId,
    role: m.role ?? globalRole,
    productType: asProductType(m.productType, 'EMS'),
    inactive: m.inactive,
  }));
  const claims: ProductClaims = {
    sub: row.id,
    email: row.email,
    email_verified: row.emailVerified,
    given_name: row.givenName,
    family_name: row.familyName,
    role,
    groups: memberships.map((m) => m.groupId),
    permissions: permissionsOf(role),
    productType: active ? asProductType(active.productType, 'EMS') : asProductType(row.productType, 'EMS'),
    aiActive: active?.ai ?? false,
    org: active?.groupId ?? null,
    inactive: active?.inactive ?? false,
    app_metadata: {
      stripeCustomerId: row.stripeCustomerId,
      role: globalRole,
      orgSpecificRoles,
      subscribedOrgs: memberships.filter((m) => m.subscribed).map((m) => m.groupId),
      activeOrg: active?.groupId ?? null,
      paymentIssue: PAYMENT_ISSUE_STATUSES.has(row.subscriptionStatus ?? ''),
      subscriptionActive: isSubscriptionActive(row.subscriptionStatus),
    },
    groupsData,
  };
  return { claims, licenseVersion: row.licenseVersion };
}

/** The standard claims of the product token, by the OpenID Connect scope that releases them. */
const STANDARD_CLAIM_SCOPES: Record<string, string> = {
  email: 'email',
  email_verified: 'email',
  given_name: 'profile',
  family_name: 'profile',
};

/**
 * The claims of a user as the platform's other applications receive them in their ID token and at
 * userinfo (decision 0065): built by the same function as the product's own token, so the two never
 * diverge. The product claims always (under the spec's plain names); e-mail and names only with the
 * scope that releases them. `sub` is the provider's own. Null for an unknown user.
 */
export async function buildApplicationClaims(
  db: Database,
  userId: string,
  scopes: readonly string[],
): Promise<Record<string, unknown> | null> {
  const claims = await buildProductClaims(db, userId);
  if (!claims) return null;
  return Object.fromEntries(
    Object.entries(claims).filter(([name]) => {
      if (name === 'sub') return false;
      const scope = STANDARD_CLAIM_SCOPES[name];
      return scope === undefined || scopes.includes(scope);
    }),
  );
}
