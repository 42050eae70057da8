import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParamsSchema } from '@patientsim/domain/common/api.schemas';
import { AppError } from '../../lib/errors.js';
import { MEDIA_ROOT, mediaToServe } from './media.service.js';
import { errorResponses } from '../../lib/error-responses.js';

/**
 * Files the server serves itself (tutorial videos, notification images, case pictures): shipped
 * files with range requests, and files received with copied cases from the database.
 */
export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/media/:id',
    // The 200 answer is the file itself, not serialised.
    { schema: { tags: ['media'], params: IdParamsSchema, response: { 200: z.unknown(), ...errorResponses(404) } } },
    async (request, reply) => {
      const found = await mediaToServe(app.db, request.params.id);
      if (!found) throw new AppError('NOT_FOUND');
      if ('content' in found) {
        return reply.type(found.contentType).header('cache-control', 'public, max-age=86400').send(found.content);
      }
      return reply.type(found.contentType).sendFile(found.file, MEDIA_ROOT, { maxAge: '1d' });
    },
  );
};
