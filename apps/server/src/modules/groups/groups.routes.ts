import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBodySchema, UserIdParamsSchema } from '@patientsim/domain/common/api.schemas';
import { GroupListSchema } from '@patientsim/domain/groups/group.schemas';
import { currentUser } from '../../plugins/app/authenticate.js';
import { listUserGroups } from './groups.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

export const groupsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/extension/users/:userId/groups',
    {
      preHandler: app.requirePermission('account:read'),
      schema: { tags: ['groups'], security: [{ bearer: [] }], params: UserIdParamsSchema, response: { 200: GroupListSchema, ...errors } },
    },
    (request) => listUserGroups({ db: app.db, actor: currentUser(request), userId: request.params.userId }),
  );
};
