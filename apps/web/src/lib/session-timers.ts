/**
 * Timers of a signed-in tab (spec section 4, decision 2). Each returns a function that stops it.
 * They take their clock from the global timer functions, so tests drive them with fake timers.
 */

/** Renew this long before the token expires. */
export const RENEWAL_MARGIN_MS = 60_000;

/** Checks every `intervalMs` whether the session is still stored; calls `onSignedOut` once when it is gone. */
export function startSessionPoll(options: {
  intervalMs: number;
  isSignedIn: () => boolean;
  onSignedOut: () => void;
}): () => void {
  const id = window.setInterval(() => {
    if (!options.isSignedIn()) {
      window.clearInterval(id);
      options.onSignedOut();
    }
  }, options.intervalMs);
  return () => window.clearInterval(id);
}

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'scroll', 'touchstart', 'wheel'] as const;

/**
 * Calls `onExpire` after `timeoutMs` without mouse, keyboard, scroll or touch activity.
 * Activity is counted at most once per `throttleMs`.
 */
export function startInactivityTimer(options: {
  timeoutMs: number;
  throttleMs: number;
  onExpire: () => void;
  target?: Window;
}): () => void {
  const target = options.target ?? window;
  let lastCounted = Date.now();
  let timeoutId = window.setTimeout(options.onExpire, options.timeoutMs);

  const onActivity = () => {
    const now = Date.now();
    if (now - lastCounted < options.throttleMs) return;
    lastCounted = now;
    window.clearTimeout(timeoutId);
    timeoutId = window.setTimeout(options.onExpire, options.timeoutMs);
  };

  for (const type of ACTIVITY_EVENTS) target.addEventListener(type, onActivity, { passive: true, capture: true });
  return () => {
    window.clearTimeout(timeoutId);
    for (const type of ACTIVITY_EVENTS) target.removeEventListener(type, onActivity, { capture: true });
  };
}

/** Calls `callback` at `atMs` (epoch milliseconds), immediately when that time has passed. */
export function startTimerAt(atMs: number, callback: () => void): () => void {
  const id = window.setTimeout(callback, Math.max(0, atMs - Date.now()));
  return () => window.clearTimeout(id);
}

/** When to renew a token expiring at `expSeconds`: a margin before expiry. */
export function renewalTimeMs(expSeconds: number): number {
  return expSeconds * 1000 - RENEWAL_MARGIN_MS;
}
