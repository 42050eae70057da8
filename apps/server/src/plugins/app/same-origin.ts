import fp from 'fastify-plugin';
import type { IncomingHttpHeaders } from 'node:http';
import { COOKIE_PREFIX } from '../../identity/auth.js';
import { AppError } from '../../lib/errors.js';

const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** better-auth's cookies, `__Secure-` prefixed over https. */
const SESSION_COOKIE = new RegExp(`^(?:__Secure-|__Host-)?${COOKIE_PREFIX}\\.`);

function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return cookieHeader !== undefined && cookieHeader.split(';').some((pair) => SESSION_COOKIE.test(pair.trimStart()));
}

/**
 * Whether a request comes from the product's own pages. The browser itself says so with
 * `Sec-Fetch-Site: same-origin` (a page cannot set it: this also covers the development server's
 * proxy and a host name other than PUBLIC_URL's). Otherwise a browser sends Origin on every
 * cross-site POST (and fetch on every non-GET), which must be PUBLIC_URL's; a request with
 * neither header is not from a browser page (curl, a server).
 */
export function isFromOwnOrigin(headers: IncomingHttpHeaders, publicOrigin: string): boolean {
  const site = headers['sec-fetch-site'];
  if (site === 'same-origin') return true;
  if (headers.origin !== undefined) return headers.origin === publicOrigin;
  if (site !== undefined) return site === 'none';
  return true;
}

/**
 * Refuses state-changing requests that carry the session cookie but come from another site's page
 * (cross-site request forgery: signing a user out, or worse, from a link they follow). Requests
 * without the cookie (bearer tokens, integrations) prove themselves otherwise and pass.
 */
export default fp(
  async (app) => {
    const publicOrigin = new URL(app.env.PUBLIC_URL).origin;
    app.addHook('onRequest', async (request) => {
      if (!STATE_CHANGING_METHODS.has(request.method) || !hasSessionCookie(request.headers.cookie)) return;
      if (!isFromOwnOrigin(request.headers, publicOrigin)) throw new AppError('CROSS_SITE_REQUEST');
    });
  },
  { name: 'same-origin', dependencies: ['services', 'error-handler'] },
);
