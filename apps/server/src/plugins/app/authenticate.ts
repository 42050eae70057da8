import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { hasPermission, type Permission } from '@patientsim/domain/roles/permissions';
import { loadIdentity } from '../../modules/users/users.service.js';
import { findSession, isSessionLive } from '../../identity/sessions.js';
import { isSuperAdminAnywhere, VIEW_OF_SUPER_ADMIN } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';

/**
 * What a View-As-User token may do on a route whose method changes something (decision 0037):
 * - `read`: the request only reads, its method notwithstanding (a query sent in a POST body);
 * - `write`: a change the view itself needs (its end), audited on the super admin's behalf;
 * - `none`: the route is the person's own and no part of what a view shows (their sessions): the
 *   token is refused whatever the method.
 * Any other route whose method changes something refuses the token with VIEW_AS_READ_ONLY, and so
 * does a `none` route, with its own message.
 */
export type ViewAsAccess = 'read' | 'write' | 'none';

/** VIEW_AS_READ_ONLY's message on a route a view may not even read. */
const NOT_IN_A_VIEW = 'This is not shown while viewing PatientSim as another user.';

/** Methods that change nothing: a View-As-User token may use them on any route it may read. */
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

// Module augmentation needs interfaces.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a View-As-User token may do on this route; see `ViewAsAccess`. */
    viewAs?: ViewAsAccess;
  }
  interface FastifyInstance {
    /** preHandler: requires a valid bearer ID token. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /**
     * preHandler factory: requires a valid bearer token of a live session whose holder's address is
     * verified (unless `allowUnverified`), whatever their role.
     */
    signedIn: (options?: { allowUnverified?: boolean }) => (request: FastifyRequest) => Promise<void>;
    /**
     * preHandler factory: `signedIn`, and the holder's current role grants `permission`.
     */
    requirePermission: (
      permission: Permission,
      options?: { allowUnverified?: boolean },
    ) => (request: FastifyRequest) => Promise<void>;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/;

/**
 * The one bearer-verification plugin for /api/users: signature, algorithm, issuer, audience, expiry,
 * the token's session, and the holder's current claims.
 */
export default fp(
  async (app) => {
    app.decorateRequest('user', null);

    const authenticate = async (request: FastifyRequest) => {
      if (request.user) return;
      const match = BEARER.exec(request.headers.authorization ?? '');
      if (!match?.[1]) throw new AppError('UNAUTHENTICATED');
      const payload = await app.tokens.verify(match[1]);
      // A token dies with its session (sign-out, password change or reset, removal, deletion); a
      // View-As-User token's session is the acting super admin's, and lives only as long as the
      // session the view was started from (signing that one out ends the view).
      const sessionOwner = payload.act?.sub ?? payload.sub;
      const found = await findSession(app.db, app.cache, payload.sid);
      if (!isSessionLive(found, sessionOwner)) throw new AppError('SESSION_ENDED');
      if (payload.act) {
        const parentId = found?.parentSessionId;
        if (!parentId || !isSessionLive(await findSession(app.db, app.cache, parentId), sessionOwner)) {
          throw new AppError('SESSION_ENDED');
        }
      }
      // What the caller may do comes from their current role and memberships, not the token's copy.
      const identity = await app.cache.get(`identity:${payload.sub}`, () => loadIdentity(app.db, payload.sub));
      if (!identity) throw new AppError('SESSION_ENDED');
      const { iss, aud, iat, exp, sid, act } = payload;
      // Nobody views the product as a super admin (POST /auth/loginAs refuses it): a view whose
      // person became one since is refused too, so a view never holds the provider's permissions
      // and no service needs to ask whether it runs in a view.
      if (act && isSuperAdminAnywhere(identity.claims)) throw new AppError('FORBIDDEN', { message: VIEW_OF_SUPER_ADMIN });
      // A view shows the product as the person sees it and changes nothing, unless the route says
      // the view needs it: one rule here rather than one refusal per service.
      const viewAs = request.routeOptions.config.viewAs;
      if (act && viewAs === 'none') throw new AppError('VIEW_AS_READ_ONLY', { message: NOT_IN_A_VIEW });
      if (act && !READ_METHODS.has(request.method) && !viewAs) throw new AppError('VIEW_AS_READ_ONLY');
      request.user = { ...identity.claims, iss, aud, iat, exp, sid, ...(act ? { act } : {}), id: payload.sub };
    };

    app.decorate('authenticate', authenticate);
    const signedIn =
      ({ allowUnverified = false }: { allowUnverified?: boolean } = {}) =>
      async (request: FastifyRequest) => {
        await authenticate(request);
        // An address counts only once verified: until then the account reaches only its own account,
        // its groups, the license and a new verification e-mail.
        if (!request.user?.email_verified && !allowUnverified) throw new AppError('EMAIL_NOT_VERIFIED');
      };
    app.decorate('signedIn', signedIn);
    app.decorate('requirePermission', (permission: Permission, options: { allowUnverified?: boolean } = {}) => {
      const signedInCaller = signedIn(options);
      return async (request: FastifyRequest) => {
        await authenticate(request);
        if (!hasPermission(request.user?.role, permission)) throw new AppError('FORBIDDEN');
        await signedInCaller(request);
      };
    });
  },
  { name: 'authenticate', dependencies: ['services'] },
);
