import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BillingSessionResponseSchema } from '@patientsim/domain/account/account.schemas';
import { ErrorBodySchema } from '@patientsim/domain/common/api.schemas';
import { currentUser } from '../../plugins/app/authenticate.js';
import { createBillingPortal, createBillingPortalSession } from './payment.service.js';

const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema, 422: ErrorBodySchema, 503: ErrorBodySchema };

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const portal = createBillingPortal(app.env);
  app.post(
    '/payment/create-billing-portal-session',
    {
      preHandler: app.requirePermission('account:read'),
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
