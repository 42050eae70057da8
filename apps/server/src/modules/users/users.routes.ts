import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { IdParamsSchema, OkSchema } from '@patientsim/domain/common/api.schemas';
import {
  ArchivedUsersQuerySchema,
  ArchivedUsersResultSchema,
  FetchAllUsersQuerySchema,
  FetchAllUsersResultSchema,
  FoundUserListSchema,
  UserLookupQuerySchema,
  UserSearchQuerySchema,
  UserSummaryListSchema,
} from '@patientsim/domain/users/users.schemas';
import type { Permission } from '@patientsim/domain/roles/permissions';
import { AppError } from '../../lib/errors.js';
import { currentOrg, currentUser } from '../../lib/access.js';
import { deleteUserAccount } from './user-deletion.service.js';
import { fetchAllUsers, listArchivedUsers, lookUpUsers, searchUsers } from './user-directory.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 403, 404);

/** The organisation named by the query's `orgId`. */
const orgInQuery = (request: FastifyRequest) => (request.query as { orgId: string }).orgId;
/**
 * The organisation named by the query's `orgId`, else the caller's active one; a caller without an
 * organisation has none to read (404, as for an organisation they do not belong to).
 */
const orgInQueryOrActive = (request: FastifyRequest) => {
  const orgId = (request.query as { orgId?: string }).orgId ?? currentUser(request).org;
  if (!orgId) throw new AppError('NOT_FOUND');
  return orgId;
};
/** Whether the query names an organisation (the calls that otherwise span every user). */
const namesOrg = (request: FastifyRequest) => (request.query as { orgId?: string }).orgId !== undefined;

/** The users of an organisation as its management pages list them, and the provider's directory of every user. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * preHandler of the calls that take an optional `orgId`: with it, the caller's current role in
   * that organisation must grant `permission` (404 outside it); without it the call spans every
   * user, which only the provider's staff may do (users:read-all).
   */
  const requireOrgOrDirectory = (permission: Permission) => {
    const inOrg = app.requireOrgPermission(permission, { orgFrom: orgInQuery });
    const directory = app.requirePermission('users:read-all');
    return async (request: FastifyRequest) => {
      if (namesOrg(request)) return inOrg(request);
      await directory(request);
    };
  };

  app.get(
    '/fetchall/users',
    {
      preHandler: requireOrgOrDirectory('org:members:read'),
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        description:
          'A page (offset, count) of the users of the organisation or group `orgId`, or of every user for the provider; `includeDeleted` adds removed members and deleted accounts; `overrideRole` reports the role there instead of the global role.',
        querystring: FetchAllUsersQuerySchema,
        response: { 200: FetchAllUsersResultSchema, ...errors },
      },
    },
    (request) => fetchAllUsers({ db: app.db, access: namesOrg(request) ? currentOrg(request) : null, query: request.query }),
  );

  app.get(
    '/users',
    {
      preHandler: app.requirePermission('org:members:read'),
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        description:
          'Users by a search over e-mail and names (`q`, at least 3 characters) or by id (`user_id`, repeated or comma-separated, at most 50): every user for the provider, otherwise the people of your organisations.',
        querystring: UserLookupQuerySchema,
        response: { 200: UserSummaryListSchema, ...errors },
      },
    },
    (request) => lookUpUsers({ db: app.db, actor: currentUser(request), query: request.query }),
  );

  app.get(
    '/search/users',
    {
      preHandler: requireOrgOrDirectory('org:members:read'),
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        description:
          'A page (offset, count) of the users whose e-mail or names contain `term` (at least 3 characters), by family name, given name and e-mail, with the number of matches (`total`): the members of the organisation or group `orgId`, or every user for the provider, with `includeDeleted` deleted accounts too.',
        querystring: UserSearchQuerySchema,
        response: { 200: FoundUserListSchema, ...errors },
      },
    },
    (request) =>
      searchUsers({
        db: app.db,
        access: namesOrg(request) ? currentOrg(request) : null,
        term: request.query.term,
        page: { offset: request.query.offset, limit: request.query.count },
        includeDeleted: request.query.includeDeleted,
      }),
  );

  app.get(
    '/archived-users',
    {
      preHandler: app.requireOrgPermission('org:members:read', { orgFrom: orgInQueryOrActive }),
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        description:
          'A page (offset, count) of the removed members of the organisation `orgId`, or without it of your active organisation; `filter` is a plain text to find in e-mail or names.',
        querystring: ArchivedUsersQuerySchema,
        response: { 200: ArchivedUsersResultSchema, ...errors },
      },
    },
    (request) => listArchivedUsers({ db: app.db, access: currentOrg(request), query: request.query }),
  );

  app.delete(
    '/users/:id',
    {
      preHandler: app.requirePermission('users:delete'),
      schema: {
        tags: ['users'],
        security: [{ bearer: [] }],
        description:
          "The provider deletes an account: it can no longer sign in, its sessions end, and it is archived in its organisations. Not one's own account, nor an organisation's key owner.",
        params: IdParamsSchema,
        response: { 200: OkSchema, ...errors, ...errorResponses(422) },
      },
    },
    (request) => deleteUserAccount({ ctx: app, actor: currentUser(request), userId: request.params.id, ip: request.ip }),
  );
};
