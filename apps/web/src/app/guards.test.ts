import { describe, expect, it } from 'vitest';
import { buildGroup, buildGroupsDataEntry, buildLoginResult } from '../testing/factories';
import { ACCESS_ROLES, ORG_ROLES, decideAccess, orgManagementPath } from './guards';

const nowMs = Date.now();

function sessionOf(role: 'STUDENT' | 'USER' | 'ADMIN' | 'SUPER_ADMIN') {
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
    ).toEqual({ isAllowed: false, redirectTo: '/login?redirectUrl=%2Fauth%2Faccount%2Fprofile%3Ftab%3D1' });
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
    for (const access of ['signed-in', ORG_ROLES] as const) {
      expect(decideAccess({ access, session: unverified, requestedPath: '/auth/account/profile', nowMs })).toEqual({
        isAllowed: false,
        redirectTo: '/verify',
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

  it('sends a role that is not allowed to profile', () => {
    expect(decideAccess({ access: ACCESS_ROLES, session: sessionOf('ADMIN'), requestedPath: '/auth/access', nowMs })).toEqual({
      isAllowed: false,
      redirectTo: '/account/profile',
    });
    expect(decideAccess({ access: ORG_ROLES, session: sessionOf('STUDENT'), requestedPath: '/auth/org', nowMs })).toEqual({
      isAllowed: false,
      redirectTo: '/account/profile',
    });
  });

  it('lets allowed roles in', () => {
    expect(
      decideAccess({ access: ACCESS_ROLES, session: sessionOf('SUPER_ADMIN'), requestedPath: '/auth/access', nowMs }),
    ).toEqual({ isAllowed: true });
    expect(decideAccess({ access: ORG_ROLES, session: sessionOf('USER'), requestedPath: '/auth/org', nowMs })).toEqual({
      isAllowed: true,
    });
  });
});

describe('orgManagementPath', () => {
  it('routes key owner, admin and instructor', () => {
    expect(orgManagementPath({ isKeyOwner: true, role: 'ADMIN' })).toBe('/org/profile');
    expect(orgManagementPath({ isKeyOwner: false, role: 'ADMIN' })).toBe('/org/invite');
    expect(orgManagementPath({ isKeyOwner: false, role: 'SUPER_ADMIN' })).toBe('/org/invite');
    expect(orgManagementPath({ isKeyOwner: false, role: 'USER' })).toBe('/org/groups');
  });
});
