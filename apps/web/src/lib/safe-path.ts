import { APP_BASENAME, paths } from '../config/paths';

/**
 * Returns `value` as a same-origin path (`/x?y#z`), or null when it points anywhere else.
 * Guards every redirect target read from a query string (redirectUrl, next).
 */
export function toSameOriginPath(value: string | null | undefined, origin: string): string | null {
  if (!value) return null;
  const trimmed = value.trim();
  // Protocol-relative and backslash tricks resolve to other hosts in some browsers.
  if (!trimmed || trimmed.startsWith('//') || trimmed.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(trimmed, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The router path of a same-origin path the app serves itself (the /auth area, the scenario library), or null when it leaves the app. */
export function toRouterPath(fullPath: string): string | null {
  const pathname = fullPath.split(/[?#]/, 1)[0] ?? '';
  const isServed = pathname === APP_BASENAME || pathname.startsWith(`${APP_BASENAME}/`) || pathname === paths.scenarios;
  return isServed ? fullPath : null;
}
