import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBodySchema, IdParamsSchema } from '@patientsim/domain/common/api.schemas';
import { media } from '../../db/schema/tutorials.js';
import { AppError } from '../../lib/errors.js';
import { SEED_ASSETS_DIR } from '../../seed/media-assets.js';

const ROOT = path.resolve(SEED_ASSETS_DIR);

/** Files the server serves itself (tutorial videos, notification images), with range requests. */
export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/media/:id',
    { schema: { tags: ['media'], params: IdParamsSchema, response: { 404: ErrorBodySchema } } },
    async (request, reply) => {
      const [row] = await app.db.select().from(media).where(eq(media.id, request.params.id)).limit(1);
      const file = row ? path.resolve(ROOT, row.path) : null;
      if (!row || !file?.startsWith(ROOT + path.sep)) throw new AppError('NOT_FOUND');
      return reply.type(row.contentType).sendFile(path.relative(ROOT, file), ROOT, { maxAge: '1d' });
    },
  );
};
