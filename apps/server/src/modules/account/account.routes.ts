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
import { AccountSessionsSchema, EndedSessionsSchema } from '@patientsim/domain/account/sessions.schemas';
import { IdParamsSchema, OkSchema } from '@patientsim/domain/common/api.schemas';
import { currentUser } from '../../lib/access.js';
import * as service from './account.service.js';
import * as sessions from './sessions.service.js';
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

  // The person's own sessions (decision 0064): any signed-in person, never through a View-As-User token.
  app.get(
    '/account/sessions',
    {
      config: { viewAs: 'none' },
      preHandler: app.signedIn({ allowUnverified: true }),
      schema: {
        tags,
        security,
        description:
          "The caller's live browser sessions, the current one first: device and browser, IP address, signed in at, last renewed (accurate to a day). Never their tokens.",
        response: { 200: AccountSessionsSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return sessions.listOwnSessions({ ctx: app, actor: currentUser(request) });
    },
  );

  app.delete(
    '/account/sessions/:id',
    {
      config: { viewAs: 'none' },
      preHandler: app.signedIn({ allowUnverified: true }),
      schema: {
        tags,
        security,
        description:
          "Ends one of the caller's other sessions at once on every process; another person's session id is 404, the current session 422 (sign out instead).",
        params: IdParamsSchema,
        response: { 200: OkSchema, ...errors },
      },
    },
    (request) => sessions.endOwnSession({ ctx: app, actor: currentUser(request), sessionId: request.params.id }),
  );

  app.post(
    '/account/sessions/sign-out-others',
    {
      config: { viewAs: 'none' },
      preHandler: app.signedIn({ allowUnverified: true }),
      schema: {
        tags,
        security,
        description: 'Ends every session of the caller but the current one, at once on every process.',
        response: { 200: EndedSessionsSchema, ...errors },
      },
    },
    (request) => sessions.endOtherOwnSessions({ ctx: app, actor: currentUser(request) }),
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
