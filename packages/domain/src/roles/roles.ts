/** Roles, ranked (spec section 6). A user may assign roles up to and including their own rank. */
export const ROLES = ['STUDENT', 'USER', 'ADMIN', 'SUPER_ADMIN'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_RANK: Record<Role, number> = { STUDENT: 1, USER: 2, ADMIN: 3, SUPER_ADMIN: 4 };

export const ROLE_LABEL: Record<Role, string> = {
  STUDENT: 'Student',
  USER: 'Instructor',
  ADMIN: 'Admin',
  SUPER_ADMIN: 'Super Administrator',
};

/** The role an invited person gets unless the inviter picks another. */
export const DEFAULT_INVITED_ROLE = 'STUDENT' satisfies Role;

/** The key owner of an organisation is one of its admins (spec section 6). */
export const KEY_OWNER_ROLE = 'ADMIN' satisfies Role;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `actor` may hand out `target` (same or lower rank). */
export function canAssignRole(actor: Role, target: Role): boolean {
  return ROLE_RANK[target] <= ROLE_RANK[actor];
}

export function isAdmin(role: Role | null | undefined): boolean {
  return role === 'ADMIN' || role === 'SUPER_ADMIN';
}

/** The role that applies in an organisation: the org-specific role overrides the global one. */
export function effectiveRole(globalRole: Role, orgSpecificRole: Role | null | undefined): Role {
  return orgSpecificRole ?? globalRole;
}
