/**
 * Built to /auth/authoring-guard.js for the server-rendered authoring pages: guards the page on
 * load and follows a logout made in another tab, as the app's own pages do. When access is
 * granted it raises AUTHORING_SESSION_EVENT on window with the login result, for the page's own
 * script.
 */
import { SESSION_POLL_MS } from '@patientsim/domain/common/constants';
import { appUrl, paths } from './config/paths';
import { enforceAuthoringGuard } from './lib/authoring-guard';
import { replaceLocation } from './lib/browser';
import { readLoginResult } from './lib/session-store';
import { startSessionPoll } from './lib/session-timers';

const AUTHORING_SESSION_EVENT = 'patientsim:authoring-session';

const result = enforceAuthoringGuard();
if (result) {
  window.dispatchEvent(new CustomEvent(AUTHORING_SESSION_EVENT, { detail: result }));
  startSessionPoll({
    intervalMs: SESSION_POLL_MS,
    isSignedIn: () => readLoginResult() !== null,
    onSignedOut: () => replaceLocation(appUrl(paths.login)),
  });
}
