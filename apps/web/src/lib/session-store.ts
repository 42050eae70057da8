import { STORAGE_KEYS, STUDENT_SESSION_SECONDS } from '@patientsim/domain/common/constants';
import { type Group, GroupListSchema } from '@patientsim/domain/groups/group.schemas';
import { type LoginResult, LoginResultSchema } from '@patientsim/domain/identity/token.schemas';
import type { ProductType } from '@patientsim/domain/product/product-types';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { SESSION_CHANGED_EVENT, getStorage, notifySessionChanged, parseJson } from './session-storage';

export { clearStoredSession } from './session-storage';

/**
 * The signed-in session as the browser keeps it: the login result, the product type and the
 * user's groups in localStorage under the product's auth namespace (spec sections 3 and 9).
 * localStorage is shared by every tab, which is what lets a logout in one tab end them all.
 */

export type SessionSnapshot = {
  result: LoginResult | null;
  /** The user's groups as fetched after login (organisations and sub-groups). */
  groups: readonly Group[];
};

function parseLoginResult(raw: string | null): LoginResult | null {
  const parsed = LoginResultSchema.safeParse(parseJson(raw));
  return parsed.success ? parsed.data : null;
}

function parseGroups(raw: string | null): Group[] {
  const parsed = GroupListSchema.safeParse(parseJson(raw));
  return parsed.success ? parsed.data : [];
}

export function readLoginResult(): LoginResult | null {
  return parseLoginResult(getStorage()?.getItem(STORAGE_KEYS.result) ?? null);
}

export function readGroups(): Group[] {
  return parseGroups(getStorage()?.getItem(STORAGE_KEYS.groupsData) ?? null);
}

export function readActiveGroups(): Group[] {
  return parseGroups(getStorage()?.getItem(STORAGE_KEYS.activeGroupsData) ?? null);
}

export function writeLoginResult(result: LoginResult): void {
  getStorage()?.setItem(STORAGE_KEYS.result, JSON.stringify(result));
  notifySessionChanged();
}

export function writeProductType(productType: ProductType): void {
  getStorage()?.setItem(STORAGE_KEYS.productType, productType);
}

export function writeGroups(groups: readonly Group[], activeGroups: readonly Group[]): void {
  const storage = getStorage();
  storage?.setItem(STORAGE_KEYS.groupsData, JSON.stringify(groups));
  storage?.setItem(STORAGE_KEYS.activeGroupsData, JSON.stringify(activeGroups));
  notifySessionChanged();
}

/** 'Remind Me at Next Login' (spec section 4): no popup notifications until the next login. */
export function disablePopupNotifications(): void {
  getStorage()?.setItem(STORAGE_KEYS.disablePopupNotifications, 'true');
}

export function arePopupNotificationsDisabled(): boolean {
  return getStorage()?.getItem(STORAGE_KEYS.disablePopupNotifications) === 'true';
}

/**
 * True while a stored login result may be used: its token has not expired and, without a lasting
 * session (students), it is not older than the student session limit (decision 2).
 */
export function isLoginResultUsable(result: LoginResult, nowMs: number): boolean {
  const payload = result.idTokenPayload;
  if (payload.exp * 1000 <= nowMs) return false;
  if (!hasPermission(payload.role, 'session:lasting') && nowMs - payload.iat * 1000 > STUDENT_SESSION_SECONDS * 1000) {
    return false;
  }
  return true;
}

/** The stored values the cached snapshot was parsed from (undefined: nothing parsed yet). */
let cachedRawResult: string | null | undefined;
let cachedRawGroups: string | null | undefined;
let cachedSnapshot: SessionSnapshot = { result: null, groups: [] };

/**
 * A stable snapshot for useSyncExternalStore: the same object until the stored values change.
 * Every component reading the session asks for it on each render, so it only compares the stored
 * strings and parses them again when they changed.
 */
export function getSessionSnapshot(): SessionSnapshot {
  const storage = getStorage();
  const rawResult = storage?.getItem(STORAGE_KEYS.result) ?? null;
  const rawGroups = storage?.getItem(STORAGE_KEYS.groupsData) ?? null;
  if (rawResult !== cachedRawResult || rawGroups !== cachedRawGroups) {
    cachedRawResult = rawResult;
    cachedRawGroups = rawGroups;
    cachedSnapshot = { result: parseLoginResult(rawResult), groups: parseGroups(rawGroups) };
  }
  return cachedSnapshot;
}

/** Calls `listener` when this tab or another one changes the stored session. */
export function subscribeToSession(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.result || event.key === STORAGE_KEYS.groupsData) listener();
  };
  window.addEventListener(SESSION_CHANGED_EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(SESSION_CHANGED_EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}
