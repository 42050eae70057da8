import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  TutorialListQuerySchema,
  TutorialListResponseSchema,
  tutorialCriteria,
} from '@patientsim/domain/tutorials/tutorial.schemas';
import { currentUser } from '../../lib/access.js';
import * as service from './tutorials.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 403);

/** The video tutorials of the org management drawer (spec section 2, decision 7). */
export const tutorialsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/tutorials',
    {
      preHandler: app.requirePermission('org:tutorials:read'),
      schema: {
        tags: ['tutorials'],
        security: [{ bearer: [] }],
        querystring: TutorialListQuerySchema,
        response: { 200: TutorialListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      const criteria = tutorialCriteria(request.query);
      return { data: { tutorials: await service.listTutorials({ db: app.db, criteria, callerProductType: actor.productType }) } };
    },
  );
};
