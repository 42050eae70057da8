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

/** Loads the current page again (after joining an organisation, spec section 4). */
export function reloadPage(): void {
  window.location.reload();
}

/** Opens a page of another site in a new tab, without giving it a handle on this one. */
export function openInNewTab(href: string): void {
  window.open(href, '_blank', 'noopener,noreferrer');
}

/** Hands a downloaded file to the browser under `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: the download has started by then.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
