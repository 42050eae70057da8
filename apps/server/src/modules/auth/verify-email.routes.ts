import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { VERIFY_EMAIL_PATH } from '../../lib/verification-link.js';
import { verifyEmail } from './email-verification.service.js';

const VERIFIED_PAGE = '/auth/emailVerified';

/**
 * Where e-mail verification links land (a browser follows them): the address is proved, then the
 * browser goes on to the verified page, with `?error=` when the link is bad, stale or expired.
 */
export const verifyEmailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    VERIFY_EMAIL_PATH,
    { schema: { hide: true, querystring: z.object({ token: z.string().max(4096).optional() }) } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        await verifyEmail({ ctx: app, token: request.query.token ?? '', ip: request.ip });
        return reply.redirect(VERIFIED_PAGE);
      } catch (error) {
        if (error instanceof AppError && error.statusCode < 500) {
          return reply.redirect(`${VERIFIED_PAGE}?error=${encodeURIComponent(error.code.toLowerCase())}`);
        }
        throw error;
      }
    },
  );
};
