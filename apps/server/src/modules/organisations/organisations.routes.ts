import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KeyOwnerAnswerSchema, MemberIdsBodySchema } from '@patientsim/domain/account/account.schemas';
import { IdParamsSchema, OkSchema, UserIdParamsSchema } from '@patientsim/domain/common/api.schemas';
import {
  CreateGroupBodySchema,
  GroupIdsBodySchema,
  GroupSearchQuerySchema,
  MemberSearchQuerySchema,
  MemberSearchResultSchema,
  OrganisationsPageSchema,
  OrganisationsQuerySchema,
  ParentParamsSchema,
  UpdateGroupBodySchema,
} from '@patientsim/domain/groups/group-management.schemas';
import { GroupListSchema, GroupSchema } from '@patientsim/domain/groups/group.schemas';
import { TwoFactorRequirementSchema } from '@patientsim/domain/auth/two-factor.schemas';
import type { FastifyRequest } from 'fastify';
import { currentOrg, currentUser } from '../../lib/access.js';
import { addMembersToGroup, createGroup, deleteGroup, deleteNestedGroups, updateGroup } from './group-writes.service.js';
import { removeGroupMembers, searchGroupMembers } from './group-members.service.js';
import {
  findKeyOwner,
  getGroup,
  listGroups,
  listNestedGroups,
  listOrganisations,
  listUserGroups,
  searchGroups,
} from './organisations.service.js';
import { getTwoFactorRequirement, setTwoFactorRequirement } from './two-factor-requirement.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 403, 404, 422);
const writeErrors = { ...errors, ...errorResponses(409) };

/** The group named by the route's `:id`. */
const groupInParams = (request: FastifyRequest) => (request.params as { id: string }).id;
/** The organisation named by the route's `:parent`. */
const parentInParams = (request: FastifyRequest) => (request.params as { parent: string }).parent;
/** The organisation named in the validated body's metadata (`description.parent`). */
const parentInBody = (request: FastifyRequest) => (request.body as { description: { parent: string } }).description.parent;

export const organisationsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Which roles of the organisation must sign in with a second factor (decision 0066). Allowed while
  // the organisation is inactive: it only protects.
  const twoFactorGuard = app.requireOrgPermission('org:two-factor:require', { orgFrom: groupInParams, allowInactive: true });
  app.get(
    '/extension/groups/:id/two-factor-requirement',
    {
      preHandler: twoFactorGuard,
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description:
          "The organisation's roles whose members must sign in with a second factor (organisations only, not sub-groups).",
        params: IdParamsSchema,
        response: { 200: TwoFactorRequirementSchema, ...errors },
      },
    },
    (request) => getTwoFactorRequirement({ access: currentOrg(request) }),
  );

  app.put(
    '/extension/groups/:id/two-factor-requirement',
    {
      preHandler: twoFactorGuard,
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description:
          'Sets the roles whose members must sign in with a second factor; those without one must set one up before their next ID token. Audited with the roles before and after.',
        params: IdParamsSchema,
        body: TwoFactorRequirementSchema,
        response: { 200: TwoFactorRequirementSchema, ...errors },
      },
    },
    (request) =>
      setTwoFactorRequirement({
        ctx: app,
        actor: currentUser(request),
        access: currentOrg(request),
        roles: request.body.roles,
        ip: request.ip,
      }),
  );

  app.get(
    '/extension/users/:userId/groups',
    {
      preHandler: app.signedIn({ allowUnverified: true }),
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
      preHandler: app.requireOrgMembership({ orgFrom: groupInParams }),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: { 200: KeyOwnerAnswerSchema, ...errors },
      },
    },
    (request) => findKeyOwner({ db: app.db, access: currentOrg(request) }),
  );

  app.delete(
    '/extension/groups/:id/members',
    {
      // Leaving is for every member, even of an inactive organisation; removing others needs
      // org:users:remove there and an active organisation (checked in the service).
      preHandler: app.requireOrgMembership({ orgFrom: groupInParams, allowInactive: true }),
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
        auth: app.auth,
        cache: app.cache,
        actor: currentUser(request),
        access: currentOrg(request),
        userIds: request.body,
        ip: request.ip,
      });
      return { ok: true as const };
    },
  );

  app.get(
    '/extension/groups',
    {
      preHandler: app.signedIn(),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description: 'Every group for the provider, otherwise your own groups.',
        response: { 200: GroupListSchema, ...errors },
      },
    },
    (request) => listGroups({ db: app.db, actor: currentUser(request) }),
  );

  app.get(
    '/organizations',
    {
      preHandler: app.requirePermission('access:console'),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description:
          "A page of every organisation for the provider's console, by name, with its metadata; `search` keeps those whose name contains it.",
        querystring: OrganisationsQuerySchema,
        response: { 200: OrganisationsPageSchema, ...errors },
      },
    },
    (request) => listOrganisations({ db: app.db, query: request.query }),
  );

  app.get(
    '/extension/groups/:id',
    {
      preHandler: app.requireOrgPermission('org:read', { orgFrom: groupInParams }),
      schema: { tags: ['groups'], security: [{ bearer: [] }], params: IdParamsSchema, response: { 200: GroupSchema, ...errors } },
    },
    (request) => getGroup({ db: app.db, access: currentOrg(request) }),
  );

  app.get(
    '/extension/groups/:id/nested',
    {
      preHandler: app.requireOrgPermission('org:groups:read', { orgFrom: groupInParams }),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description: 'The groups of an organisation.',
        params: IdParamsSchema,
        response: { 200: GroupListSchema, ...errors },
      },
    },
    (request) => listNestedGroups({ db: app.db, access: currentOrg(request) }),
  );

  app.post(
    '/extension/groups',
    {
      preHandler: app.requireOrgPermission('org:groups:manage', { orgFrom: parentInBody }),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description: 'Create a group inside an organisation (`description` holds `{"parent": orgId}`).',
        body: CreateGroupBodySchema,
        response: { 200: GroupSchema, ...writeErrors },
      },
    },
    (request) =>
      createGroup({
        db: app.db,
        cache: app.cache,
        actor: currentUser(request),
        access: currentOrg(request),
        ip: request.ip,
        name: request.body.name,
      }),
  );

  app.patch(
    '/extension/groups/:id',
    {
      // Group owners may be instructors; what each field needs is checked in the service.
      preHandler: app.requireOrgPermission('org:read', { orgFrom: groupInParams }),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description: 'Change a name and/or metadata fields (top level or as the JSON text of `description`).',
        params: IdParamsSchema,
        body: UpdateGroupBodySchema,
        response: { 200: GroupSchema, ...writeErrors },
      },
    },
    (request) => {
      const { name, description, ...fields } = request.body;
      // Counted figures the client may echo back are not settings.
      const {
        parent: _parent,
        memberCount: _memberCount,
        seatHolders: _seatHolders,
        pendingSeatInvitations: _pendingSeatInvitations,
        openSeats: _openSeats,
        ...described
      } = description ?? {};
      return updateGroup({
        db: app.db,
        cache: app.cache,
        actor: currentUser(request),
        access: currentOrg(request),
        ip: request.ip,
        name,
        changes: { ...described, ...fields },
      });
    },
  );

  app.delete(
    '/extension/groups/:id',
    {
      // Group owners may be instructors: the service checks org:groups:manage or ownership.
      preHandler: app.requireOrgPermission('org:read', { orgFrom: groupInParams }),
      schema: { tags: ['groups'], security: [{ bearer: [] }], params: IdParamsSchema, response: { 200: OkSchema, ...errors } },
    },
    async (request) => {
      await deleteGroup({
        db: app.db,
        cache: app.cache,
        actor: currentUser(request),
        access: currentOrg(request),
        ip: request.ip,
      });
      return { ok: true as const };
    },
  );

  app.delete(
    '/extension/groups/:parent/nested',
    {
      preHandler: app.requireOrgPermission('org:groups:manage', { orgFrom: parentInParams }),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description: 'Delete groups of an organisation.',
        params: ParentParamsSchema,
        body: GroupIdsBodySchema,
        response: { 200: OkSchema, ...errors },
      },
    },
    async (request) => {
      await deleteNestedGroups({
        db: app.db,
        cache: app.cache,
        actor: currentUser(request),
        access: currentOrg(request),
        ip: request.ip,
        groupIds: request.body,
      });
      return { ok: true as const };
    },
  );

  app.patch(
    '/extension/groups/:id/members',
    {
      // Group owners may be instructors: the service checks org:groups:manage or ownership.
      preHandler: app.requireOrgPermission('org:read', { orgFrom: groupInParams }),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description: 'Add members of the organisation to one of its groups.',
        params: IdParamsSchema,
        body: MemberIdsBodySchema,
        response: { 200: OkSchema, ...errors },
      },
    },
    async (request) => {
      await addMembersToGroup({
        db: app.db,
        cache: app.cache,
        actor: currentUser(request),
        access: currentOrg(request),
        ip: request.ip,
        userIds: request.body,
      });
      return { ok: true as const };
    },
  );

  app.get(
    '/search/groups',
    {
      preHandler: app.requirePermission('org:read'),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description: 'Fuzzy search of group names (similarity 0.2), within your organisations.',
        querystring: GroupSearchQuerySchema,
        response: { 200: GroupListSchema, ...errors },
      },
    },
    (request) => searchGroups({ db: app.db, actor: currentUser(request), term: request.query.term }),
  );

  app.get(
    '/extension/groups/:id/member-search',
    {
      preHandler: app.requireOrgPermission('org:members:read', { orgFrom: groupInParams }),
      schema: {
        tags: ['groups'],
        security: [{ bearer: [] }],
        description:
          'A page (offset, count) of the members of the organisation by e-mail or name (term), role, and in or not in the named group, by name, with the number of matches (`total`); without a term, the members of a group.',
        params: IdParamsSchema,
        querystring: MemberSearchQuerySchema,
        response: { 200: MemberSearchResultSchema, ...errors },
      },
    },
    (request) =>
      searchGroupMembers({
        db: app.db,
        access: currentOrg(request),
        term: request.query.term,
        role: request.query.role,
        inGroup: request.query.inGroup === undefined ? undefined : request.query.inGroup === 'true',
        page: { offset: request.query.offset, limit: request.query.count },
      }),
  );
};
