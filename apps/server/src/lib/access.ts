/**
 * Who a request acts as, and in which organisation: the shapes the bearer and organisation guards
 * (plugins/app) fill and every module reads. They live here, below both, so that modules need no
 * plugin and plugins no module to name them.
 */
import type { FastifyRequest } from 'fastify';
import type { IdTokenPayload } from '@patientsim/domain/identity/token.schemas';
import type { Role } from '@patientsim/domain/roles/roles';
import type { group } from '../db/schema/groups.js';
import { AppError } from './errors.js';

/** The signed-in caller: the holder's current claims, and `act` on a View-As-User token. */
export type RequestUser = IdTokenPayload & { id: string };

/** The organisation a request acts in, and the caller's current role there. */
export type OrgAccess = {
  /** The group the request names (an organisation or one of its sub-groups). */
  group: typeof group.$inferSelect;
  /** Its organisation (the group itself for an organisation). */
  orgId: string;
  role: Role;
  /** The organisation is inactive (its members keep only the right to leave it). */
  isInactive: boolean;
};

// Module augmentation needs interfaces.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearer guard (plugins/app/authenticate.ts). */
    user: RequestUser | null;
    /** Set by the organisation guards (plugins/app/org-access.ts). */
    org: OrgAccess | null;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

/** The signed-in user of a route behind the bearer guard. */
export function currentUser(request: FastifyRequest): RequestUser {
  if (!request.user) throw new AppError('UNAUTHENTICATED');
  return request.user;
}

/** The organisation of the request behind `requireOrgPermission` or `requireOrgMembership`. */
export function currentOrg(request: FastifyRequest): OrgAccess {
  if (!request.org) throw new AppError('FORBIDDEN');
  return request.org;
}

/** The refusal of a view of a super admin, when it starts and on every request of one. */
export const VIEW_OF_SUPER_ADMIN = 'You cannot view the product as another super admin.';

/**
 * Whether a person is a super admin anywhere: globally, or in one of their organisations. Nobody
 * views the product as such a person, so a view never carries the provider's own permissions.
 */
export function isSuperAdminAnywhere(claims: Pick<IdTokenPayload, 'role' | 'app_metadata' | 'groupsData'>): boolean {
  return (
    claims.role === 'SUPER_ADMIN' ||
    claims.app_metadata.role === 'SUPER_ADMIN' ||
    claims.groupsData.some((entry) => entry.role === 'SUPER_ADMIN')
  );
}

/**
 * The caller's role in an organisation, from their current claims: a super admin everywhere,
 * otherwise the role of their membership there, or null.
 */
export function roleInOrganisation(user: RequestUser, orgId: string): Role | null {
  if (user.role === 'SUPER_ADMIN') return 'SUPER_ADMIN';
  return user.groupsData.find((entry) => entry._id === orgId && entry.parent === null)?.role ?? null;
}
