import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApplicationListSchema,
  RegisterApplicationBodySchema,
  RegisteredApplicationSchema,
} from '@patientsim/domain/applications/application.schemas';
import { IdParamsSchema, OkSchema } from '@patientsim/domain/common/api.schemas';
import { currentUser } from '../../lib/access.js';
import { errorResponses } from '../../lib/error-responses.js';
import * as service from './applications.service.js';

const errors = errorResponses(400, 401, 403, 404);

/** The access area's Applications: the platform's applications that sign in through PatientSim (decision 0065). */
export const applicationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['applications'];
  const security = [{ bearer: [] }];
  const preHandler = app.requirePermission('applications:manage');

  app.get(
    '/applications',
    { preHandler, schema: { tags, security, response: { 200: ApplicationListSchema, ...errors } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { applications: await service.listApplications({ db: app.db }) };
    },
  );

  app.post(
    '/applications',
    {
      preHandler,
      schema: { tags, security, body: RegisterApplicationBodySchema, response: { 200: RegisteredApplicationSchema, ...errors } },
    },
    async (request, reply) => {
      // The answer holds the client secret, shown once: nothing may keep a copy of it.
      reply.header('cache-control', 'no-store');
      return service.registerApplication({
        ctx: app,
        actor: currentUser(request),
        body: request.body,
        ip: request.ip,
        headers: fromNodeHeaders(request.headers),
      });
    },
  );

  app.delete(
    '/applications/:id',
    { preHandler, schema: { tags, security, params: IdParamsSchema, response: { 200: OkSchema, ...errors } } },
    async (request) => {
      await service.removeApplication({ ctx: app, actor: currentUser(request), id: request.params.id, ip: request.ip });
      return { ok: true as const };
    },
  );
};
