/**
 * Built to /auth/authoring-guard.js for the server-rendered authoring pages: guards the page on
 * load and follows a logout made in another tab, as the app's own pages do.
 */
import { SESSION_POLL_MS } from '@patientsim/domain/common/constants';
import { appUrl, paths } from './config/paths';
import { enforceAuthoringGuard } from './lib/authoring-guard';
import { replaceLocation } from './lib/browser';
import { readLoginResult } from './lib/session-store';
import { startSessionPoll } from './lib/session-timers';

if (enforceAuthoringGuard()) {
  startSessionPoll({
    intervalMs: SESSION_POLL_MS,
    isSignedIn: () => readLoginResult() !== null,
    onSignedOut: () => replaceLocation(appUrl(paths.login)),
  });
}
