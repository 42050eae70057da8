import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OkSchema, UserIdParamsSchema } from '@patientsim/domain/common/api.schemas';
import {
  DeclineInviteBodySchema,
  FinishInvitationBodySchema,
  FinishInviteBodySchema,
  FinishedInvitationSchema,
  InvitationDescriptionSchema,
  InvitationTokenQuerySchema,
  InviteIdParamsSchema,
  PendingInvitesBodySchema,
  PendingInvitesResponseSchema,
  UserInvitesResponseSchema,
} from '@patientsim/domain/invitations/invitation.schemas';
import { AppError } from '../../lib/errors.js';
import { currentUser } from '../../lib/access.js';
import * as service from './invitee.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 403, 404, 409, 422);
const BEARER = /^Bearer\s+(\S+)$/;

/** The invitee's side of invitations: list, accept, decline, dismiss. */
export const inviteeRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['invitations'];
  const security = [{ bearer: [] }];
  const signedIn = app.signedIn();

  app.post(
    '/invites/pending',
    {
      preHandler: signedIn,
      // A read sent as POST (spec section 7): the verify screen shows it in a view too.
      config: { viewAs: 'read' },
      schema: { tags, security, body: PendingInvitesBodySchema, response: { 200: PendingInvitesResponseSchema, ...errors } },
    },
    async (request) => ({
      data: {
        pending: await service.listPendingInvitations({ db: app.db, actor: currentUser(request), email: request.body.email }),
      },
    }),
  );

  app.get(
    '/invites/user/:userId',
    {
      preHandler: signedIn,
      schema: { tags, security, params: UserIdParamsSchema, response: { 200: UserInvitesResponseSchema, ...errors } },
    },
    async (request) => ({
      data: {
        invites: await service.listUserInvitations({ db: app.db, actor: currentUser(request), userId: request.params.userId }),
      },
    }),
  );

  app.post(
    '/invites/dismiss/:inviteId',
    { preHandler: signedIn, schema: { tags, security, params: InviteIdParamsSchema, response: { 200: OkSchema, ...errors } } },
    async (request) => {
      await service.settleOwnInvitation({
        db: app.db,
        actor: currentUser(request),
        inviteId: request.params.inviteId,
        status: 'dismissed',
        ip: request.ip,
      });
      return { ok: true as const };
    },
  );

  app.post(
    '/invitations/decline',
    { preHandler: signedIn, schema: { tags, security, body: DeclineInviteBodySchema, response: { 200: OkSchema, ...errors } } },
    async (request) => {
      await service.settleOwnInvitation({
        db: app.db,
        actor: currentUser(request),
        inviteId: request.body.inviteId,
        status: 'declined',
        ip: request.ip,
      });
      return { ok: true as const };
    },
  );

  app.post(
    '/invitations/finish-invite',
    {
      preHandler: signedIn,
      schema: { tags, security, body: FinishInviteBodySchema, response: { 200: FinishedInvitationSchema, ...errors } },
    },
    async (request) => {
      const { orgId } = await service.finishInvite({
        db: app.db,
        cache: app.cache,
        actor: currentUser(request),
        ...request.body,
        ip: request.ip,
      });
      return { ok: true as const, orgId };
    },
  );

  app.post(
    '/invitations/finish',
    {
      schema: {
        tags,
        description: 'The bearer is the invitation token.',
        body: FinishInvitationBodySchema,
        response: { 200: FinishedInvitationSchema, ...errors },
      },
    },
    async (request) => {
      const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
      if (!token) throw new AppError('UNAUTHENTICATED');
      const { orgId } = await service.finishInvitationWithToken({
        db: app.db,
        cache: app.cache,
        token,
        email: request.body.email,
        ip: request.ip,
      });
      return { ok: true as const, orgId };
    },
  );

  app.get(
    '/invitations/describe',
    { schema: { tags, querystring: InvitationTokenQuerySchema, response: { 200: InvitationDescriptionSchema, ...errors } } },
    (request) => service.describeInvitation({ db: app.db, token: request.query.token }),
  );
};
