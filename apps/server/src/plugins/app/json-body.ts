import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors.js';
import { isJsonDeeperThan, JSON_MAX_DEPTH } from '../../lib/json-depth.js';

/**
 * Every JSON body (REST routes, GraphQL variables) is refused with 400 JSON_TOO_DEEP when it nests
 * deeper than JSON_MAX_DEPTH, before it is parsed. JSON.parse itself copes with any depth; the
 * first recursive walk of the value after it (a schema's refinement, JSON.stringify) would not, and
 * would answer 500. Then Fastify's own parser reads it, prototype poisoning refused as configured.
 */
export default fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser(
      app.initialConfig.onProtoPoisoning ?? 'error',
      app.initialConfig.onConstructorPoisoning ?? 'error',
    );
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (isJsonDeeperThan(body as string, JSON_MAX_DEPTH)) {
        done(
          new AppError('JSON_TOO_DEEP', { message: `The JSON is nested more than ${JSON_MAX_DEPTH} levels deep.` }),
          undefined,
        );
        return;
      }
      // Fastify's parser answers through done; it returns nothing to wait for.
      void parseJson(request, body as string, done);
    });
  },
  { name: 'json-body', dependencies: ['error-handler'] },
);
