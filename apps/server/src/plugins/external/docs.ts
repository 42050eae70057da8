import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI of the zod-typed routes, served at /api/docs. */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: { title: 'PatientSim API', version: '1.0.0', description: 'Users, organisations and identity API.' },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            // The account's second factors are reached with the session cookie (decision 0066).
            cookie: { type: 'apiKey', in: 'cookie', name: 'patientsim.session_token' },
          },
        },
      },
      transform: (input) => {
        // Only zod-typed routes go through the zod transform; others (static files, the identity
        // provider's own endpoints) are hidden from the document.
        if (!['/api/users', '/api/cases', '/api/reference-data'].some((prefix) => input.url.startsWith(prefix))) {
          return { schema: { ...input.schema, hide: true }, url: input.url };
        }
        return jsonSchemaTransform(input);
      },
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'docs' },
);
