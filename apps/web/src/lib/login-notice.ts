/** What the login page may receive from a logout, as navigation state. */
export type LoginNotice = { notice: string };

/** The notice carried to the login page, when the navigation state holds one. */
export function readLoginNotice(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('notice' in state)) return null;
  return typeof state.notice === 'string' && state.notice ? state.notice : null;
}
