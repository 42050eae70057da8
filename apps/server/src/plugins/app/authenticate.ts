import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { IdTokenPayload } from '@patientsim/domain/identity/token.schemas';
import { hasPermission, type Permission } from '@patientsim/domain/roles/permissions';
import { AppError } from '../../lib/errors.js';

export type RequestUser = IdTokenPayload & { id: string };

// Module augmentation needs interfaces.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'fastify' {
  interface FastifyRequest {
    user: RequestUser | null;
  }
  interface FastifyInstance {
    /** preHandler: requires a valid bearer ID token. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler factory: requires a valid bearer token whose role grants `permission`. */
    requirePermission: (permission: Permission) => (request: FastifyRequest) => Promise<void>;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/;

/** The one bearer-verification plugin for /api/users: signature, algorithm, issuer, audience, expiry. */
export default fp(
  async (app) => {
    app.decorateRequest('user', null);

    const authenticate = async (request: FastifyRequest) => {
      if (request.user) return;
      const match = BEARER.exec(request.headers.authorization ?? '');
      if (!match?.[1]) throw new AppError('UNAUTHENTICATED');
      const payload = await app.tokens.verify(match[1]);
      request.user = { ...payload, id: payload.sub };
    };

    app.decorate('authenticate', authenticate);
    app.decorate('requirePermission', (permission: Permission) => async (request: FastifyRequest) => {
      await authenticate(request);
      if (!hasPermission(request.user?.role, permission)) throw new AppError('FORBIDDEN');
    });
  },
  { name: 'authenticate', dependencies: ['services'] },
);

/** The signed-in user of a route behind `authenticate`. */
export function currentUser(request: FastifyRequest): RequestUser {
  if (!request.user) throw new AppError('UNAUTHENTICATED');
  return request.user;
}
