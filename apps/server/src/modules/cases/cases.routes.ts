import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CASE_ACCESS_CODE_HEADER } from '@patientsim/domain/cases/case.schemas';
import { IdParamsSchema } from '@patientsim/domain/common/api.schemas';
import { AppError } from '../../lib/errors.js';
import { isSameSecret } from '../../lib/secrets.js';
import { currentUser } from '../../lib/access.js';
import * as service from './cases.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 403, 404);

/**
 * The case document for the other deployments' case tools (decision 17): a bearer token of
 * someone who may read the case, plus this deployment's access code in `x-case-access-code`.
 */
export const casesRoutes: FastifyPluginAsyncZod = async (app) => {
  const signedIn = app.requirePermission('cases:read');
  app.get(
    '/api/cases/:id',
    {
      preHandler: [
        signedIn,
        async (request) => {
          if (!isSameSecret(app.env.CASE_ACCESS_CODE, request.headers[CASE_ACCESS_CODE_HEADER])) {
            throw new AppError('CASE_ACCESS_CODE_INVALID');
          }
        },
      ],
      schema: {
        tags: ['cases'],
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        headers: z.object({ [CASE_ACCESS_CODE_HEADER]: z.string().max(512).optional() }),
        response: { 200: z.record(z.string(), z.unknown()), ...errors },
      },
    },
    async (request) =>
      service.caseDocumentFor({ db: app.db, cache: app.cache, actor: currentUser(request), ip: request.ip }, request.params.id),
  );
};
