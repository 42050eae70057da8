import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KeyOwnerSchema, MemberIdsBodySchema } from '@patientsim/domain/account/account.schemas';
import { ErrorBodySchema, IdParamsSchema, OkSchema, UserIdParamsSchema } from '@patientsim/domain/common/api.schemas';
import { GroupListSchema } from '@patientsim/domain/groups/group.schemas';
import { currentUser } from '../../plugins/app/authenticate.js';
import { findKeyOwner, listUserGroups, removeGroupMembers } from './groups.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema };

export const groupsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/extension/users/:userId/groups',
    {
      preHandler: app.requirePermission('account:read'),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        params: UserIdParamsSchema,
        response: { 200: GroupListSchema, ...errors },
      },
    },
    (request) => listUserGroups({ db: app.db, cache: app.cache, actor: currentUser(request), userId: request.params.userId }),
  );

  app.get(
    '/extension/groups/:id/key-owner',
    {
      preHandler: app.requirePermission('account:read'),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: { 200: KeyOwnerSchema, ...errors },
      },
    },
    (request) => findKeyOwner({ db: app.db, actor: currentUser(request), groupId: request.params.id }),
  );

  app.delete(
    '/extension/groups/:id/members',
    {
      preHandler: app.requirePermission('account:read'),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description: 'Leave (your own id) or remove members (admins).',
        params: IdParamsSchema,
        body: MemberIdsBodySchema,
        response: { 200: OkSchema, ...errors },
      },
    },
    async (request) => {
      await removeGroupMembers({
        db: app.db,
        cache: app.cache,
        actor: currentUser(request),
        groupId: request.params.id,
        userIds: request.body,
        ip: request.ip,
      });
      return { ok: true as const };
    },
  );
};
