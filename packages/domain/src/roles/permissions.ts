import type { Role } from './roles.js';

/**
 * What each role may do. The server enforces this table in one guard; the web app reads it
 * only to hide what the server would refuse.
 */
export const PERMISSIONS = [
  'account:update',
  'session:lasting',
  'org:read',
  'org:members:read',
  'org:tutorials:read',
  'org:invite',
  'org:users:remove',
  'org:users:edit',
  'org:users:edit-role',
  'org:users:sign-out',
  'org:groups:read',
  'org:groups:manage',
  'org:update',
  'org:two-factor:require',
  'org:configure',
  'org:audit:read',
  'org:key-owner:email',
  'cases:read',
  'cases:template-info',
  'cases:assignments',
  'cases:publish',
  'cases:copy',
  'cms:open',
  'access:console',
  'access:login-as',
  'notifications:send',
  'users:read-all',
  'users:delete',
  'users:move',
  'audit:read-all',
  'applications:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const STUDENT: readonly Permission[] = ['account:update', 'cases:read'];
const USER: readonly Permission[] = [
  ...STUDENT,
  // A session that lasts: one-hour ID tokens, an expired stored token renewed silently, and no
  // inactivity logout. Without it (students) a token lives 1200 seconds, a stored one older than
  // that is discarded, and 1200 seconds without activity log out (spec section 6, decision 2).
  'session:lasting',
  'org:read',
  'org:members:read',
  // Names and e-mail of members up to the instructor's rank; roles stay with admins (decision 3).
  'org:users:edit',
  'org:tutorials:read',
  // Whether a case is a template, published or in App Lab, and the template listing (spec section 5).
  'cases:template-info',
  'cases:assignments',
];
const ADMIN: readonly Permission[] = [
  ...USER,
  'org:invite',
  'org:users:remove',
  'org:users:edit-role',
  // Ending every session of a member (a lost phone, a shared computer), audited in the organisation.
  'org:users:sign-out',
  'org:groups:read',
  'org:groups:manage',
  'org:update',
  // Which roles of the organisation must sign in with a second factor (decision 0066).
  'org:two-factor:require',
  // The organisation's audit trail: who did what in it.
  'org:audit:read',
  // The e-mail address of the key owner (or of a sub-group's admin); others get the name only.
  'org:key-owner:email',
];
const SUPER_ADMIN: readonly Permission[] = [
  ...ADMIN,
  // Seats, product type, flags and status of an organisation: the provider's own settings.
  'org:configure',
  // The template libraries: listing, publishing, App Lab, and a case's access lists.
  'cases:publish',
  // Moving cases between organisations and deployments: dump, restore, bulk removal.
  'cases:copy',
  // The content management area (/cms), another application; it travels in the token's permissions claim.
  'cms:open',
  'access:console',
  'access:login-as',
  'notifications:send',
  // Every user of every organisation (the provider's user directory and search), and deleting an account.
  'users:read-all',
  'users:delete',
  // Moving a person from one organisation to another (only in the provider's users view, spec section 6).
  'users:move',
  // Every organisation's audit trail.
  'audit:read-all',
  // The platform's applications that sign in through PatientSim (OpenID Connect clients).
  'applications:manage',
];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = { STUDENT, USER, ADMIN, SUPER_ADMIN };

export function hasPermission(role: Role | null | undefined, permission: Permission): boolean {
  return role ? ROLE_PERMISSIONS[role].includes(permission) : false;
}

export function permissionsOf(role: Role): Permission[] {
  return [...ROLE_PERMISSIONS[role]];
}
