import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema, OkSchema } from '@patientsim/domain/common/api.schemas';
import {
  NewNotificationBodySchema,
  NotificationListResponseSchema,
  SentNotificationPageSchema,
  SentNotificationResponseSchema,
  SentNotificationsQuerySchema,
} from '@patientsim/domain/notifications/notification.schemas';
import { currentUser } from '../../lib/access.js';
import * as service from './notifications.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 403, 404);

/**
 * The user's side of notifications (the list, the pending (unread) ones, read and unread), and the
 * provider's: sending an announcement and the read counts of those sent.
 */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['notifications'];
  const security = [{ bearer: [] }];
  const signedIn = app.signedIn();

  app.get(
    '/notifications',
    { preHandler: signedIn, schema: { tags, security, response: { 200: NotificationListResponseSchema, ...errors } } },
    async (request) => ({
      data: {
        notifications: await service.listNotifications({
          db: app.db,
          cache: app.cache,
          actor: currentUser(request),
          unreadOnly: false,
        }),
      },
    }),
  );

  app.get(
    '/notifications/pending',
    { preHandler: signedIn, schema: { tags, security, response: { 200: NotificationListResponseSchema, ...errors } } },
    async (request) => ({
      data: {
        notifications: await service.listNotifications({
          db: app.db,
          cache: app.cache,
          actor: currentUser(request),
          unreadOnly: true,
        }),
      },
    }),
  );

  for (const state of ['read', 'unread'] as const) {
    app.post(
      `/notifications/:id/${state}`,
      { preHandler: signedIn, schema: { tags, security, params: IdParamsSchema, response: { 200: OkSchema, ...errors } } },
      async (request) => {
        await service.markNotification({
          db: app.db,
          cache: app.cache,
          actor: currentUser(request),
          notificationId: request.params.id,
          read: state === 'read',
        });
        return { ok: true as const };
      },
    );
  }

  app.post(
    '/notifications',
    {
      preHandler: app.requirePermission('notifications:send'),
      schema: {
        tags,
        security,
        body: NewNotificationBodySchema,
        response: { 200: SentNotificationResponseSchema, ...errors },
      },
    },
    async (request) => ({
      data: {
        notification: await service.sendNotification({
          db: app.db,
          actor: currentUser(request),
          body: request.body,
          ip: request.ip,
        }),
      },
    }),
  );

  app.get(
    '/notifications/sent',
    {
      preHandler: app.requirePermission('notifications:send'),
      schema: {
        tags,
        security,
        querystring: SentNotificationsQuerySchema,
        response: { 200: SentNotificationPageSchema, ...errors },
      },
    },
    (request) => service.listSentNotifications({ db: app.db, query: request.query }),
  );
};
