import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddUserBodySchema,
  ProvisionBodySchema,
  ProvisioningDescriptionSchema,
  ProvisionedLoginSchema,
  ProvisioningQuerySchema,
  ProvisionResponseSchema,
} from '@patientsim/domain/account/provisioning.schemas';
import * as service from './integrations.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 404, 409, 422);

/** Provisioned accounts (decision 15): integrations provision, the person chooses a password. */
export const integrationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['integrations'];

  app.post(
    '/integrations/provision',
    {
      schema: {
        tags,
        description: 'Authenticated with the integration key in the x-integration-key header.',
        headers: z.object({ 'x-integration-key': z.string().max(512).optional() }),
        body: ProvisionBodySchema,
        response: { 200: ProvisionResponseSchema, ...errors },
      },
    },
    async (request) => {
      service.checkIntegrationKey(app.env.INTEGRATION_KEY, request.headers['x-integration-key']);
      return service.provisionPerson({ ctx: app, body: request.body, ip: request.ip });
    },
  );

  app.get(
    '/integrations/provisioning',
    { schema: { tags, querystring: ProvisioningQuerySchema, response: { 200: ProvisioningDescriptionSchema, ...errors } } },
    (request) => service.describeProvisioning({ ctx: app, token: request.query.token }),
  );

  app.post(
    '/integrations/add-user',
    { schema: { tags, body: AddUserBodySchema, response: { 200: ProvisionedLoginSchema, ...errors } } },
    async (request, reply) => {
      const { cookies, result } = await service.addProvisionedUser({
        ctx: app,
        ...request.body,
        ip: request.ip,
        headers: fromNodeHeaders(request.headers),
      });
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      return result;
    },
  );
};
