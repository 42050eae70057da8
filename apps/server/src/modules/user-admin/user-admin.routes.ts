import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MemberSignOutParamsSchema } from '@patientsim/domain/account/sessions.schemas';
import { IdParamsSchema, OkSchema } from '@patientsim/domain/common/api.schemas';
import {
  OrgMembersQuerySchema,
  OrgUserEditQuerySchema,
  OrgUsersPageSchema,
  UpdateOrgUserBodySchema,
} from '@patientsim/domain/users/org-users.schemas';
import { MoveUserBodySchema, UserDetailsSchema } from '@patientsim/domain/users/users.schemas';
import { currentOrg, currentUser } from '../../lib/access.js';
import { errorResponses } from '../../lib/error-responses.js';
import { signOutMember } from './member-sign-out.service.js';
import { listGroupUsers, updateOrgUser } from './org-users.service.js';
import { getUserDetails } from './user-details.service.js';
import { moveUser } from './user-move.service.js';

const errors = errorResponses(400, 401, 403, 404);

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

/**
 * Administering users across the users, organisations and invitations modules: an organisation's
 * users screen (members and invitees) and an admin's edit of a member, the provider's view of a
 * user's memberships and the move of a person between organisations.
 */
export const userAdminRoutes: FastifyPluginAsyncZod = async (app) => {
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
        response: { 200: OkSchema, ...errors, ...errorResponses(409, 422) },
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

  app.post(
    '/extension/groups/:id/members/:userId/sign-out',
    {
      // Ending sessions protects the organisation: allowed while it is inactive too.
      preHandler: app.requireOrgPermission('org:users:sign-out', { orgFrom: groupInParams, allowInactive: true }),
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        description:
          'An admin signs a member of the organisation out everywhere: every session of theirs ends at once, audited. Not the caller, the key owner, a member ranked above the caller or a provider account (403).',
        params: MemberSignOutParamsSchema,
        response: { 200: OkSchema, ...errors },
      },
    },
    (request) =>
      signOutMember({
        ctx: app,
        actor: currentUser(request),
        access: currentOrg(request),
        userId: request.params.userId,
        ip: request.ip,
      }),
  );

  app.get(
    '/users/:id',
    {
      preHandler: app.requirePermission('users:read-all'),
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        description: "A user's account and every membership (removed ones too), for the provider's user view.",
        params: IdParamsSchema,
        response: { 200: UserDetailsSchema, ...errors },
      },
    },
    (request) => getUserDetails({ db: app.db, actor: currentUser(request), userId: request.params.id }),
  );

  app.post(
    '/users/:id/move',
    {
      preHandler: app.requirePermission('users:move'),
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        description:
          'The provider moves a person into the organisation `orgId`, out of `fromOrgId` when given (archived there, as a removal), with `role` there; their sessions end.',
        params: IdParamsSchema,
        body: MoveUserBodySchema,
        response: { 200: OkSchema, ...errors, ...errorResponses(409, 422) },
      },
    },
    (request) =>
      moveUser({ ctx: app, actor: currentUser(request), userId: request.params.id, body: request.body, ip: request.ip }),
  );
};
