import type { Permission } from '@patientsim/domain/roles/permissions';

/**
 * Who may open a route: anyone; any signed-in user, even one whose address awaits verification
 * ('unverified': the verify screen and org selection); any signed-in user with a verified address;
 * or such users whose role grants this permission in the domain permission table (the one the
 * server enforces), so that the app opens exactly what the server would answer.
 *
 * Only the declaration lives here, so that the route table costs the first page nothing; the
 * guard that enforces it (`guards.ts`) loads with the first page that is not public.
 */
export type RouteAccess = 'public' | 'unverified' | 'signed-in' | Permission;

/**
 * The permission that opens each signed-in area (spec section 6); the route table and the side nav
 * both read it.
 */
export const AREA_ACCESS = {
  /** /account and the billing portal: every signed-in person. */
  account: 'signed-in',
  /** /org and /groups: SUPER_ADMIN, ADMIN, USER. */
  org: 'org:read',
  /** /access: SUPER_ADMIN only. */
  access: 'access:console',
} as const satisfies Record<string, RouteAccess>;
