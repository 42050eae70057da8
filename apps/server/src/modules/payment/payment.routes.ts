import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BillingSessionResponseSchema } from '@patientsim/domain/account/account.schemas';
import { currentUser } from '../../lib/access.js';
import { createBillingPortal, createBillingPortalSession } from './payment.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(401, 403, 422, 503);

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const portal = createBillingPortal(app.env);
  app.post(
    '/payment/create-billing-portal-session',
    {
      preHandler: app.signedIn(),
      schema: { tags: ['payment'], security: [{ bearer: [] }], response: { 200: BillingSessionResponseSchema, ...errors } },
    },
    async (request) => {
      const sessionUrl = await createBillingPortalSession({
        db: app.db,
        portal,
        actor: currentUser(request),
        publicUrl: app.env.PUBLIC_URL,
      });
      return { ok: true as const, data: { sessionUrl } };
    },
  );
};
