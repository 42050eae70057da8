/** What the login page may receive from a logout, as navigation state. */
export type LoginNotice = { notice: string; severity?: LoginNoticeSeverity };

/** A notice tells of something done (an e-mail sent), or of something to do again (a sign-in expired). */
export type LoginNoticeSeverity = 'success' | 'warning';

/** The notice carried to the login page, when the navigation state holds one. */
export function readLoginNotice(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('notice' in state)) return null;
  return typeof state.notice === 'string' && state.notice ? state.notice : null;
}

/** How the notice carried to the login page reads: done by default. */
export function readLoginNoticeSeverity(state: unknown): LoginNoticeSeverity {
  return typeof state === 'object' && state !== null && 'severity' in state && state.severity === 'warning'
    ? 'warning'
    : 'success';
}
