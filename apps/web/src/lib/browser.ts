/**
 * Full-page navigation, for targets outside this app's router (the authoring pages, the
 * billing portal) and for a clean slate after logout. Kept in one place so tests can stub it.
 */
export function assignLocation(href: string): void {
  window.location.assign(href);
}

export function replaceLocation(href: string): void {
  window.location.replace(href);
}

/** Silent renewal failures are ignored on a developer's machine (spec section 4). */
export function isLocalhost(hostname: string = window.location.hostname): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}
