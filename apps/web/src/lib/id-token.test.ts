import { describe, expect, it, vi } from 'vitest';
import {
  NORTHGATE_ID,
  RIVERSIDE_ID,
  buildGroup,
  buildGroupsDataEntry,
  buildLoginResult,
  buildPayload,
} from '../testing/factories';
import { jsonResponse } from '../testing/render';
import { PERMISSIONS_CHANGED_EVENT, haveClaimsChanged, renewSession } from './id-token';
import {
  clearStoredSession,
  readActiveGroups,
  readGroups,
  readLoginResult,
  writeGroups,
  writeLoginResult,
} from './session-store';

describe('haveClaimsChanged', () => {
  it('ignores expiry and issue time, notices role, groups and names', () => {
    const before = buildPayload();
    expect(haveClaimsChanged(before, { ...before, exp: before.exp + 10, iat: before.iat + 10 })).toBe(false);
    expect(haveClaimsChanged(before, { ...before, role: 'USER' })).toBe(true);
    expect(haveClaimsChanged(before, { ...before, groups: [...before.groups, 'x'] })).toBe(true);
    expect(haveClaimsChanged(before, { ...before, given_name: 'Bea' })).toBe(true);
    expect(haveClaimsChanged(before, { ...before, family_name: 'B' })).toBe(true);
    expect(haveClaimsChanged(before, { ...before, email: 'b@demo.test' })).toBe(true);
    expect(haveClaimsChanged(before, { ...before, permissions: ['x'] })).toBe(true);
    expect(haveClaimsChanged(before, { ...before, productType: 'NURSING' })).toBe(true);
    expect(haveClaimsChanged(before, { ...before, aiActive: true })).toBe(true);
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

  it('fetches the groups again when the memberships changed, and raises no event when nothing did', async () => {
    writeLoginResult(buildLoginResult());
    writeGroups([buildGroup({ _id: RIVERSIDE_ID })], []);
    const northgate = buildGroup({ _id: NORTHGATE_ID, name: 'Northgate Nursing School' }, { productType: 'NURSING' });
    const joined = buildPayload({
      groups: [RIVERSIDE_ID, NORTHGATE_ID],
      org: NORTHGATE_ID,
      groupsData: [buildGroupsDataEntry(), buildGroupsDataEntry({ _id: NORTHGATE_ID, name: 'Northgate Nursing School' })],
    });
    joined.app_metadata.activeOrg = NORTHGATE_ID;
    const fetchMock = vi.fn(async (url: string) =>
      url === '/api/users/auth/token'
        ? jsonResponse({ idToken: 'joined.token.value', idTokenPayload: joined })
        : jsonResponse([buildGroup({ _id: RIVERSIDE_ID }), northgate]),
    );
    vi.stubGlobal('fetch', fetchMock);

    await renewSession();

    expect(fetchMock).toHaveBeenCalledWith('/api/users/extension/users/user-1/groups', expect.anything());
    expect(readGroups().map((group) => group._id)).toEqual([RIVERSIDE_ID, NORTHGATE_ID]);
    expect(readActiveGroups().map((group) => group._id)).toEqual([NORTHGATE_ID]);

    // Same claims again: the stored groups are kept and nobody is told.
    const onChanged = vi.fn();
    window.addEventListener(PERMISSIONS_CHANGED_EVENT, onChanged);
    fetchMock.mockClear();
    await renewSession();
    window.removeEventListener(PERMISSIONS_CHANGED_EVENT, onChanged);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('stores nothing when the user logged out while the renewal was under way', async () => {
    writeLoginResult(buildLoginResult());
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        clearStoredSession();
        return jsonResponse({ idToken: 'late.token.value', idTokenPayload: buildPayload() });
      }),
    );
    await expect(renewSession()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(readLoginResult()).toBeNull();
  });
});
