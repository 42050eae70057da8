import { describe, expect, it } from 'vitest';
import { hasPermission, permissionsOf } from './permissions.js';
import { canAssignRole, effectiveRole, isAdmin, ROLE_LABEL, ROLE_RANK } from './roles.js';

describe('roles', () => {
  it('ranks the roles as the spec says', () => {
    expect(ROLE_RANK).toEqual({ STUDENT: 1, USER: 2, ADMIN: 3, SUPER_ADMIN: 4 });
    expect(ROLE_LABEL.USER).toBe('Instructor');
    expect(ROLE_LABEL.SUPER_ADMIN).toBe('Super Administrator');
  });

  it('lets a user assign roles up to and including their own rank', () => {
    expect(canAssignRole('ADMIN', 'ADMIN')).toBe(true);
    expect(canAssignRole('ADMIN', 'STUDENT')).toBe(true);
    expect(canAssignRole('ADMIN', 'SUPER_ADMIN')).toBe(false);
    expect(canAssignRole('USER', 'ADMIN')).toBe(false);
  });

  it('lets an organisation-specific role override the global role', () => {
    expect(effectiveRole('STUDENT', 'ADMIN')).toBe('ADMIN');
    expect(effectiveRole('ADMIN', null)).toBe('ADMIN');
  });

  it('groups admins', () => {
    expect(isAdmin('ADMIN')).toBe(true);
    expect(isAdmin('SUPER_ADMIN')).toBe(true);
    expect(isAdmin('USER')).toBe(false);
  });
});

describe('permission table', () => {
  it('gives each higher role everything the lower one has', () => {
    const order = ['STUDENT', 'USER', 'ADMIN', 'SUPER_ADMIN'] as const;
    for (let i = 1; i < order.length; i += 1) {
      const lower = permissionsOf(order[i - 1] ?? 'STUDENT');
      const higher = permissionsOf(order[i] ?? 'STUDENT');
      for (const permission of lower) expect(higher).toContain(permission);
    }
  });

  it('keeps the access area to super admins and invitations to admins (decision 3)', () => {
    expect(hasPermission('SUPER_ADMIN', 'access:console')).toBe(true);
    expect(hasPermission('ADMIN', 'access:console')).toBe(false);
    expect(hasPermission('ADMIN', 'org:invite')).toBe(true);
    expect(hasPermission('USER', 'org:invite')).toBe(false);
    expect(hasPermission('USER', 'org:members:read')).toBe(true);
    expect(hasPermission('STUDENT', 'org:members:read')).toBe(false);
    expect(hasPermission(null, 'account:update')).toBe(false);
  });

  it('gives every role above student a lasting session (spec section 6: students are logged out on inactivity, no renewal beyond 1200 seconds)', () => {
    expect(hasPermission('STUDENT', 'session:lasting')).toBe(false);
    expect(hasPermission('USER', 'session:lasting')).toBe(true);
    expect(hasPermission('ADMIN', 'session:lasting')).toBe(true);
    expect(hasPermission('SUPER_ADMIN', 'session:lasting')).toBe(true);
  });
});
