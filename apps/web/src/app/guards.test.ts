import { ROLES, type Role } from '@patientsim/domain/roles/roles';
import { describe, expect, it } from 'vitest';
import { buildGroup, buildGroupsDataEntry, buildLoginResult } from '../testing/factories';
import { AREA_ACCESS, decideAccess, orgManagementPath } from './guards';

const nowMs = Date.now();

function sessionOf(role: Role) {
  return { result: buildLoginResult({ role, groupsData: [buildGroupsDataEntry({ role })] }), groups: [buildGroup()] };
}

describe('decideAccess', () => {
  it('lets anyone open a public route', () => {
    expect(
      decideAccess({ access: 'public', session: { result: null, groups: [] }, requestedPath: '/auth/login', nowMs }),
    ).toEqual({ isAllowed: true });
  });

  it('sends an unauthenticated user to login with a redirect back', () => {
    expect(
      decideAccess({
        access: 'signed-in',
        session: { result: null, groups: [] },
        requestedPath: '/auth/account/profile?tab=1',
        nowMs,
      }),
    ).toEqual({ isAllowed: false, redirectTo: '/auth/login?redirectUrl=%2Fauth%2Faccount%2Fprofile%3Ftab%3D1' });
  });

  it('treats an expired token as unauthenticated', () => {
    const expired = buildLoginResult({ iat: nowMs / 1000 - 7200, exp: nowMs / 1000 - 10 });
    const decision = decideAccess({
      access: 'signed-in',
      session: { result: expired, groups: [] },
      requestedPath: '/auth/account/profile',
      nowMs,
    });
    expect(decision.isAllowed).toBe(false);
  });

  it('sends a signed-in user whose address awaits verification to the verify screen, except where that is allowed', () => {
    const unverified = { result: buildLoginResult({ email_verified: false }), groups: [buildGroup()] };
    for (const access of ['signed-in', AREA_ACCESS.org] as const) {
      expect(decideAccess({ access, session: unverified, requestedPath: '/auth/account/profile', nowMs })).toEqual({
        isAllowed: false,
        redirectTo: '/auth/verify',
      });
    }
    expect(decideAccess({ access: 'unverified', session: unverified, requestedPath: '/auth/verify', nowMs })).toEqual({
      isAllowed: true,
    });
    expect(
      decideAccess({ access: 'unverified', session: { result: null, groups: [] }, requestedPath: '/auth/verify', nowMs })
        .isAllowed,
    ).toBe(false);
  });

  it('sends a role without the permission of the route to profile', () => {
    expect(
      decideAccess({ access: AREA_ACCESS.access, session: sessionOf('ADMIN'), requestedPath: '/auth/access', nowMs }),
    ).toEqual({
      isAllowed: false,
      redirectTo: '/auth/account/profile',
    });
    expect(decideAccess({ access: AREA_ACCESS.org, session: sessionOf('STUDENT'), requestedPath: '/auth/org', nowMs })).toEqual({
      isAllowed: false,
      redirectTo: '/auth/account/profile',
    });
  });

  it('lets allowed roles in', () => {
    expect(
      decideAccess({ access: AREA_ACCESS.access, session: sessionOf('SUPER_ADMIN'), requestedPath: '/auth/access', nowMs }),
    ).toEqual({ isAllowed: true });
    expect(decideAccess({ access: AREA_ACCESS.org, session: sessionOf('USER'), requestedPath: '/auth/org', nowMs })).toEqual({
      isAllowed: true,
    });
  });
});

describe('AREA_ACCESS', () => {
  /** The roles the guard lets into a route declaring `access`. */
  function rolesAllowed(access: (typeof AREA_ACCESS)[keyof typeof AREA_ACCESS]): Role[] {
    return ROLES.filter((role) => decideAccess({ access, session: sessionOf(role), requestedPath: '/auth/x', nowMs }).isAllowed);
  }

  it('opens each area to the roles of spec section 6, through the permission table', () => {
    expect(rolesAllowed(AREA_ACCESS.account)).toEqual(['STUDENT', 'USER', 'ADMIN', 'SUPER_ADMIN']);
    // /org and /groups: SUPER_ADMIN, ADMIN, USER.
    expect(rolesAllowed(AREA_ACCESS.org)).toEqual(['USER', 'ADMIN', 'SUPER_ADMIN']);
    // /access: SUPER_ADMIN only.
    expect(rolesAllowed(AREA_ACCESS.access)).toEqual(['SUPER_ADMIN']);
  });
});

describe('orgManagementPath', () => {
  it('routes key owner, admin and instructor', () => {
    expect(orgManagementPath({ isKeyOwner: true, role: 'ADMIN' })).toBe('/auth/org/profile');
    expect(orgManagementPath({ isKeyOwner: false, role: 'ADMIN' })).toBe('/auth/org/invite');
    expect(orgManagementPath({ isKeyOwner: false, role: 'SUPER_ADMIN' })).toBe('/auth/org/invite');
    expect(orgManagementPath({ isKeyOwner: false, role: 'USER' })).toBe('/auth/org/groups');
    expect(orgManagementPath({ isKeyOwner: false, role: 'STUDENT' })).toBe('/auth/org/groups');
  });
});
