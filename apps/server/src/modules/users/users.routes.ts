import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorBodySchema, IdParamsSchema, OkSchema } from '@patientsim/domain/common/api.schemas';
import {
  OrgMembersQuerySchema,
  OrgUserEditQuerySchema,
  OrgUsersPageSchema,
  UpdateOrgUserBodySchema,
} from '@patientsim/domain/users/org-users.schemas';
import { currentUser } from '../../plugins/app/authenticate.js';
import { currentOrg } from '../../plugins/app/org-access.js';
import { listGroupUsers, updateOrgUser } from './org-users.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** The group named by the route's `:id`. */
const groupInParams = (request: FastifyRequest) => (request.params as { id: string }).id;
/** The organisation named by the query's `orgId`. */
const orgInQuery = (request: FastifyRequest) => (request.query as { orgId: string }).orgId;

/**
 * PATCH /users/{id} is two calls under one path (spec section 7): without `orgId` a user's own
 * profile (modules/account), with it an admin's edit of a member. A route constraint on the query
 * keeps them apart, each with its own schema and guard.
 */
const ORG_SCOPED = 'orgScoped';
type ConstraintStrategy = Parameters<FastifyInstance['addConstraintStrategy']>[0];
type StoredHandler = NonNullable<ReturnType<ReturnType<ConstraintStrategy['storage']>['get']>>;

/** The users of an organisation as its management pages list them. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  if (!app.hasConstraintStrategy(ORG_SCOPED)) {
    app.addConstraintStrategy({
      name: ORG_SCOPED,
      storage() {
        const handlers = new Map<unknown, StoredHandler>();
        return {
          get: (value: unknown) => handlers.get(value) ?? null,
          set: (value: unknown, handler: StoredHandler) => {
            handlers.set(value, handler);
          },
        };
      },
      // Requests without the query fall through to the unconstrained route.
      deriveConstraint: (request: { url?: string }) =>
        new URLSearchParams((request.url ?? '').split('?')[1] ?? '').has('orgId') ? 'yes' : undefined,
      mustMatchWhenDerived: false,
    });
  }

  app.get(
    '/extension/groups/:id/members',
    {
      preHandler: app.requireOrgPermission('org:members:read', { orgFrom: groupInParams }),
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        description:
          'A page of the users of an organisation or group: members first, then pending and declined invitees; variants all, subscribed, archived; optional search over e-mail and names.',
        params: IdParamsSchema,
        querystring: OrgMembersQuerySchema,
        response: { 200: OrgUsersPageSchema, ...errors },
      },
    },
    (request) => listGroupUsers({ db: app.db, access: currentOrg(request), query: request.query }),
  );

  app.patch(
    '/users/:id',
    {
      constraints: { [ORG_SCOPED]: 'yes' },
      preHandler: app.requireOrgPermission('org:users:edit', { orgFrom: orgInQuery }),
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        description: "An admin's edit of a member of the organisation `orgId`: names, e-mail and role there.",
        params: IdParamsSchema,
        querystring: OrgUserEditQuerySchema,
        body: UpdateOrgUserBodySchema,
        response: { 200: OkSchema, ...errors, 409: ErrorBodySchema, 422: ErrorBodySchema },
      },
    },
    (request) =>
      updateOrgUser({
        ctx: app,
        actor: currentUser(request),
        access: currentOrg(request),
        userId: request.params.id,
        changes: request.body,
        ip: request.ip,
      }),
  );
};
