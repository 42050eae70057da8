import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBodySchema, IdParamsSchema, OkSchema } from '@patientsim/domain/common/api.schemas';
import { NotificationListResponseSchema } from '@patientsim/domain/notifications/notification.schemas';
import { currentUser } from '../../plugins/app/authenticate.js';
import * as service from './notifications.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** The user's side of notifications: the list, the pending (unread) ones, read and unread. */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['notifications'];
  const security = [{ bearer: [] }];
  const signedIn = app.requirePermission('account:read');

  app.get(
    '/notifications',
    { preHandler: signedIn, schema: { tags, security, response: { 200: NotificationListResponseSchema, ...errors } } },
    async (request) => ({
      data: { notifications: await service.listNotifications({ db: app.db, actor: currentUser(request), unreadOnly: false }) },
    }),
  );

  app.get(
    '/notifications/pending',
    { preHandler: signedIn, schema: { tags, security, response: { 200: NotificationListResponseSchema, ...errors } } },
    async (request) => ({
      data: { notifications: await service.listNotifications({ db: app.db, actor: currentUser(request), unreadOnly: true }) },
    }),
  );

  for (const state of ['read', 'unread'] as const) {
    app.post(
      `/notifications/:id/${state}`,
      { preHandler: signedIn, schema: { tags, security, params: IdParamsSchema, response: { 200: OkSchema, ...errors } } },
      async (request) => {
        await service.markNotification({
          db: app.db,
          actor: currentUser(request),
          notificationId: request.params.id,
          read: state === 'read',
        });
        return { ok: true as const };
      },
    );
  }
};
