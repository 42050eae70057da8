import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ReferenceDataSchema } from '@patientsim/domain/reference/reference-data';
import { createReferenceDocument, matchesIfNoneMatch } from './reference.service.js';

/** Clients may reuse the answer for an hour, then revalidate it with If-None-Match. */
export const REFERENCE_CACHE_CONTROL = 'public, max-age=3600, must-revalidate';

/**
 * The reference data of spec section 3 (GET /api/reference-data), read-only and public: it is the
 * product's vocabulary (body parts, dosage forms, lines, features by product type), holds nothing
 * about any person or organisation, and the scenario builder reads it before anyone signs in.
 */
export const referenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const document = createReferenceDocument();
  app.get(
    '/api/reference-data',
    {
      config: { publicCache: true },
      schema: {
        tags: ['reference'],
        summary: 'Reference data (spec section 3)',
        description:
          'Body parts, medication and vascular access vocabularies, positions, body types, maximum bags and ' +
          'feature availability and labels per product type. Public; cacheable: answers an ETag and ' +
          `Cache-Control "${REFERENCE_CACHE_CONTROL}", and 304 Not Modified to a matching If-None-Match.`,
        response: { 200: ReferenceDataSchema, 304: z.undefined().describe('Not Modified: the client holds the current data') },
      },
    },
    async (request, reply) => {
      reply.header('ETag', document.etag).header('Cache-Control', REFERENCE_CACHE_CONTROL);
      if (matchesIfNoneMatch(request.headers['if-none-match'], document.etag)) {
        return reply.code(304).send();
      }
      return document.data;
    },
  );
};
