import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChangePasswordBodySchema,
  ProfileSchema,
  ReclaimEmailBodySchema,
  ReclaimEmailResultSchema,
  ScenarioSummaryQuerySchema,
  SupportContactSchema,
  UpdateProfileBodySchema,
} from '@patientsim/domain/account/account.schemas';
import { IdParamsSchema, OkSchema } from '@patientsim/domain/common/api.schemas';
import { currentUser } from '../../lib/access.js';
import * as service from './account.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 403, 404, 409, 422);

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['account'];
  const security = [{ bearer: [] }];

  // Where to reach the provider: the first day of a person with no organisation says it.
  app.get(
    '/support-contact',
    {
      preHandler: app.signedIn(),
      schema: { tags, security, response: { 200: SupportContactSchema, ...errors } },
    },
    () => ({ email: app.env.SUPPORT_EMAIL }),
  );

  app.patch(
    '/users/:id',
    {
      preHandler: app.requirePermission('account:update', { allowUnverified: true }),
      schema: {
        tags,
        security,
        params: IdParamsSchema,
        body: UpdateProfileBodySchema,
        response: { 200: ProfileSchema.extend({ emailChanged: z.boolean() }), ...errors },
      },
    },
    (request) =>
      service.updateOwnProfile({
        ctx: app,
        actor: currentUser(request),
        userId: request.params.id,
        changes: request.body,
        ip: request.ip,
      }),
  );

  app.post(
    '/account/change-password',
    {
      preHandler: app.requirePermission('account:update', { allowUnverified: true }),
      schema: { tags, security, body: ChangePasswordBodySchema, response: { 200: OkSchema, ...errors } },
    },
    async (request, reply) => {
      const cookies = await service.changePassword({
        ctx: app,
        actor: currentUser(request),
        headers: fromNodeHeaders(request.headers),
        ...request.body,
        ip: request.ip,
      });
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      return { ok: true as const };
    },
  );

  app.post(
    '/account/reclaim-email',
    {
      schema: {
        tags,
        description:
          'Follows a "this wasn\'t me" link mailed to the account\'s previous address after an organisation changed it: the account goes back to that address, every session of it ends, and the answer carries a password reset token.',
        body: ReclaimEmailBodySchema,
        response: { 200: ReclaimEmailResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.reclaimEmailAddress({ ctx: app, token: request.body.token, ip: request.ip });
    },
  );

  app.post(
    '/account/scenario-summary',
    {
      preHandler: app.requirePermission('access:console'),
      schema: {
        tags,
        security,
        querystring: ScenarioSummaryQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const csv = await service.buildScenarioSummary({
        ctx: app,
        actor: currentUser(request),
        allUsers: request.query.showAllUsers === 'true',
      });
      return reply
        .serializer((payload) => String(payload))
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="summary.csv"')
        .send(csv);
    },
  );
};
