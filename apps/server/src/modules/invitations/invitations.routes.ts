import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { IdParamsSchema, OkSchema } from '@patientsim/domain/common/api.schemas';
import {
  InviteEmailQuerySchema,
  InviteResultListSchema,
  type InviteUsersBody,
  InviteUsersBodySchema,
  InvitedAddressesBodySchema,
  InvitedAddressesResponseSchema,
  OrgInvitesResponseSchema,
} from '@patientsim/domain/invitations/invite-users.schemas';
import { currentOrg, currentUser } from '../../lib/access.js';
import * as service from './invitations.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 403, 404, 422, 429);
const tags = ['invitations'];
const security = [{ bearer: [] }];

/** The organisation named by the route's `:id`. */
const orgInParams = (request: FastifyRequest) => (request.params as { id: string }).id;

/** The admin side of invitations: invite, list, revoke and resend (the invitee side is invitee.routes). */
export const invitationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const inviteIntoOrganisation = app.requireOrgPermission('org:invite', {
    orgFrom: (request) => (request.body as InviteUsersBody).org as string,
  });
  // Creating an organisation is the provider's own act.
  const inviteIntoNewOrganisation = app.requirePermission('access:console');

  app.post(
    '/invitations/invite',
    {
      preHandler: (request) =>
        typeof (request.body as InviteUsersBody).org === 'string'
          ? inviteIntoOrganisation(request)
          : inviteIntoNewOrganisation(request),
      schema: { tags, security, body: InviteUsersBodySchema, response: { 200: InviteResultListSchema, ...errors } },
    },
    async (request) => {
      const { org, users, throughSubscription, groupMembership } = request.body;
      return service.createInvitations({
        ctx: app,
        actor: currentUser(request),
        ip: request.ip,
        target: typeof org === 'string' ? { kind: 'existing', access: currentOrg(request) } : { kind: 'new', organisation: org },
        users,
        throughSubscription,
        groupMembership,
      });
    },
  );

  app.get(
    '/invites/org/:id',
    {
      preHandler: app.requireOrgPermission('org:members:read', { orgFrom: orgInParams }),
      schema: { tags, security, params: IdParamsSchema, response: { 200: OrgInvitesResponseSchema, ...errors } },
    },
    async (request) => ({ invites: await service.listOrganisationInvitations({ db: app.db, access: currentOrg(request) }) }),
  );

  app.post(
    '/invites/org/:id/addresses',
    {
      // Asked while inviting: the same permission as inviting, in the organisation named.
      preHandler: app.requireOrgPermission('org:invite', { orgFrom: orgInParams }),
      schema: {
        tags,
        security,
        description:
          'What inviting each address would do to the seats: `member` (already an active member), `invited` (a pending invitation is sent again) or `new` (a new invitation). Answers about this organisation only; reads, writes nothing.',
        params: IdParamsSchema,
        body: InvitedAddressesBodySchema,
        response: { 200: InvitedAddressesResponseSchema, ...errors },
      },
    },
    async (request) => ({
      addresses: await service.describeInvitedAddresses({
        db: app.db,
        access: currentOrg(request),
        emails: request.body.emails,
      }),
    }),
  );

  app.delete(
    '/invites/org/:id',
    {
      preHandler: app.requireOrgPermission('org:invite', { orgFrom: orgInParams }),
      schema: {
        tags,
        security,
        params: IdParamsSchema,
        querystring: InviteEmailQuerySchema,
        response: { 200: OkSchema, ...errors },
      },
    },
    async (request) => {
      await service.revokeInvitation({
        ctx: app,
        actor: currentUser(request),
        ip: request.ip,
        access: currentOrg(request),
        email: request.query.email,
      });
      return { ok: true as const };
    },
  );

  app.post(
    '/invites/org/:id/resend',
    {
      preHandler: app.requireOrgPermission('org:invite', { orgFrom: orgInParams }),
      schema: {
        tags,
        security,
        params: IdParamsSchema,
        querystring: InviteEmailQuerySchema,
        response: { 200: OkSchema, ...errors },
      },
    },
    async (request) => {
      await service.resendInvitation({
        ctx: app,
        actor: currentUser(request),
        ip: request.ip,
        access: currentOrg(request),
        email: request.query.email,
      });
      return { ok: true as const };
    },
  );
};
