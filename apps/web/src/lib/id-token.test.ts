import { describe, expect, it, vi } from 'vitest';
import { RIVERSIDE_ID, buildGroup, buildLoginResult, buildPayload } from '../testing/factories';
import { jsonResponse } from '../testing/render';
import { PERMISSIONS_CHANGED_EVENT, haveClaimsChanged, renewSession } from './id-token';
import { readActiveGroups, readLoginResult, writeGroups, writeLoginResult } from './session-store';

describe('haveClaimsChanged', () => {
  it('ignores expiry and issue time, notices role, groups and names', () => {
    const before = buildPayload();
    expect(haveClaimsChanged(before, { ...before, exp: before.exp + 10, iat: before.iat + 10 })).toBe(false);
    expect(haveClaimsChanged(before, { ...before, role: 'USER' })).toBe(true);
    expect(haveClaimsChanged(before, { ...before, groups: [...before.groups, 'x'] })).toBe(true);
    expect(haveClaimsChanged(before, { ...before, given_name: 'Bea' })).toBe(true);
  });
});

describe('renewSession', () => {
  it('stores the new token, re-derives the active groups and raises permissions-changed on a change', async () => {
    writeLoginResult(buildLoginResult());
    writeGroups([buildGroup({ _id: RIVERSIDE_ID })], []);
    const renewed = buildPayload({ role: 'USER' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ idToken: 'new.token.value', idTokenPayload: renewed })),
    );
    const onChanged = vi.fn();
    window.addEventListener(PERMISSIONS_CHANGED_EVENT, onChanged);

    await renewSession();

    window.removeEventListener(PERMISSIONS_CHANGED_EVENT, onChanged);
    expect(readLoginResult()?.idToken).toBe('new.token.value');
    expect(readActiveGroups().map((group) => group._id)).toEqual([RIVERSIDE_ID]);
    expect(onChanged).toHaveBeenCalledTimes(1);
  });
});
