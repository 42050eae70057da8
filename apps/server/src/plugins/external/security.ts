import helmet from 'helmet';
import fp from 'fastify-plugin';

declare module 'fastify' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    /** The answer holds only public data and sets its own Cache-Control (security's no-store skips it). */
    publicCache?: boolean;
  }
}

/**
 * Security headers. The CSP allows no inline scripts; MUI/emotion inject inline styles, so
 * styles need 'unsafe-inline' (never scripts). HSTS only when the public origin is https: sent
 * over http://localhost it would make the browser refuse plain http there for a year. The headers
 * never change, so helmet's middleware is built once, at start (decision 0030).
 */
export default fp(
  async (app) => {
    const isHttps = new URL(app.env.PUBLIC_URL).protocol === 'https:';
    const setSecurityHeaders = helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // The bulk-invite file reader runs in a worker built as a file of its own (never a blob).
          workerSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          mediaSrc: ["'self'", 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameSrc: ["'self'"],
          objectSrc: ["'self'"],
          frameAncestors: ["'self'"],
          formAction: ["'self'"],
          baseUri: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: isHttps ? { maxAge: 31_536_000, includeSubDomains: true, preload: false } : false,
    });
    // helmet 8 throws what it cannot set rather than passing it on: its callback only continues.
    app.addHook('onRequest', (request, reply, done) => {
      setSecurityHeaders(request.raw, reply.raw, () => done());
    });
    // API answers carry tokens and personal data: no browser or proxy cache may keep them. A route
    // that answers only public data may opt out with `config: { publicCache: true }` and set its own.
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/api/') && request.routeOptions.config.publicCache !== true) {
        reply.header('cache-control', 'no-store');
      }
    });
  },
  { name: 'security', dependencies: ['services'] },
);
