import { describe, expect, it } from 'vitest';
import { buildLoginResult } from '../testing/factories';
import { checkAuthoringAccess } from './authoring-guard';

const nowMs = Date.parse('2026-03-01T10:00:00Z');
const nowSeconds = nowMs / 1000;

describe('checkAuthoringAccess', () => {
  it('lets a valid, verified session through', () => {
    const result = buildLoginResult({ iat: nowSeconds - 10, exp: nowSeconds + 3600 });
    expect(checkAuthoringAccess({ result, currentPath: '/authoring/cases', nowMs })).toEqual({
      isAllowed: true,
      result,
    });
  });

  it('sends a missing session to login with a timestamp and a redirect back', () => {
    const access = checkAuthoringAccess({ result: null, currentPath: '/authoring/cases?tab=2', nowMs });
    expect(access).toEqual({
      isAllowed: false,
      redirectTo: `/auth/login?t=${nowMs}&redirectUrl=%2Fauthoring%2Fcases%3Ftab%3D2`,
    });
  });

  it('sends an expired session to login', () => {
    const result = buildLoginResult({ iat: nowSeconds - 7200, exp: nowSeconds - 1 });
    const access = checkAuthoringAccess({ result, currentPath: '/authoring/cases', nowMs });
    expect(access.isAllowed).toBe(false);
    expect(!access.isAllowed && access.redirectTo.startsWith('/auth/login?t=')).toBe(true);
  });

  it('sends an unverified e-mail to the verify screen', () => {
    const result = buildLoginResult({ email_verified: false, iat: nowSeconds, exp: nowSeconds + 3600 });
    expect(checkAuthoringAccess({ result, currentPath: '/authoring/cases', nowMs })).toEqual({
      isAllowed: false,
      redirectTo: '/auth/verify',
    });
  });
});
