import { STORAGE_KEYS } from '@patientsim/domain/common/constants';
import { describe, expect, it, vi } from 'vitest';
import { buildGroup, buildLoginResult } from '../testing/factories';
import {
  clearStoredSession,
  getSessionSnapshot,
  isLoginResultUsable,
  readLoginResult,
  subscribeToSession,
  writeGroups,
  writeLoginResult,
  writeProductType,
} from './session-store';

describe('session store', () => {
  it('round-trips the login result under the product namespace', () => {
    const result = buildLoginResult();
    writeLoginResult(result);
    expect(window.localStorage.getItem(STORAGE_KEYS.result)).toBe(JSON.stringify(result));
    expect(readLoginResult()).toEqual(result);
  });

  it('ignores a stored value that is not a login result', () => {
    window.localStorage.setItem(STORAGE_KEYS.result, '{"idToken":1}');
    expect(readLoginResult()).toBeNull();
    window.localStorage.setItem(STORAGE_KEYS.result, 'not json');
    expect(readLoginResult()).toBeNull();
  });

  it('clears session, product type, group data and the popup preference', () => {
    writeLoginResult(buildLoginResult());
    writeProductType('EMS');
    writeGroups([buildGroup()], [buildGroup()]);
    window.localStorage.setItem(STORAGE_KEYS.disablePopupNotifications, 'true');
    window.localStorage.setItem('unrelated', 'kept');

    clearStoredSession();

    for (const key of Object.values(STORAGE_KEYS)) expect(window.localStorage.getItem(key)).toBeNull();
    expect(window.localStorage.getItem('unrelated')).toBe('kept');
  });

  it('keeps the snapshot identical until the stored values change', () => {
    writeLoginResult(buildLoginResult());
    const first = getSessionSnapshot();
    expect(getSessionSnapshot()).toBe(first);
    writeGroups([buildGroup()], []);
    const second = getSessionSnapshot();
    expect(second).not.toBe(first);
    expect(second.groups).toHaveLength(1);
  });

  it('notifies subscribers of changes in this tab and in others', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToSession(listener);
    writeLoginResult(buildLoginResult());
    expect(listener).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.result }));
    expect(listener).toHaveBeenCalledTimes(2);
    window.dispatchEvent(new StorageEvent('storage', { key: 'unrelated' }));
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    clearStoredSession();
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe('isLoginResultUsable', () => {
  const now = Date.parse('2026-03-01T10:00:00Z');
  const nowSeconds = now / 1000;

  it('accepts an unexpired token and refuses an expired one', () => {
    expect(isLoginResultUsable(buildLoginResult({ iat: nowSeconds - 60, exp: nowSeconds + 60 }), now)).toBe(true);
    expect(isLoginResultUsable(buildLoginResult({ iat: nowSeconds - 3600, exp: nowSeconds }), now)).toBe(false);
  });

  it('refuses a student token older than 1200 seconds (decision 2)', () => {
    const fresh = buildLoginResult({ role: 'STUDENT', iat: nowSeconds - 1200, exp: nowSeconds + 3600 });
    const old = buildLoginResult({ role: 'STUDENT', iat: nowSeconds - 1201, exp: nowSeconds + 3600 });
    expect(isLoginResultUsable(fresh, now)).toBe(true);
    expect(isLoginResultUsable(old, now)).toBe(false);
  });

  it('keeps the unexpired token of every role above student past 1200 seconds: their session lasts', () => {
    for (const role of ['USER', 'ADMIN', 'SUPER_ADMIN'] as const) {
      const old = buildLoginResult({ role, iat: nowSeconds - 3000, exp: nowSeconds + 600 });
      expect(isLoginResultUsable(old, now), role).toBe(true);
    }
  });
});
