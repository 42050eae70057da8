import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { AUTH_BASE_PATH } from '../../identity/auth.js';

/** The product claims of spec section 3, in the product's ID token and in the applications' (decision 0065). */
const PRODUCT_CLAIMS = [
  'role',
  'groups',
  'permissions',
  'productType',
  'aiActive',
  'org',
  'inactive',
  'app_metadata',
  'groupsData',
];

/**
 * The identity provider's endpoints that clients reach directly, answered by better-auth's handler:
 * the published signing keys, and the OpenID Connect endpoints of the OAuth provider (decision 0065)
 * that the platform's applications and the sign-in and consent pages call. Everything else of
 * better-auth stays closed: the product's own identity routes are under /api/users.
 */
const PROVIDER_ENDPOINTS: ReadonlyArray<readonly [HTTPMethods[], string]> = [
  [['GET'], '/jwks'],
  [['GET', 'POST'], '/oauth2/authorize'],
  [['POST'], '/oauth2/token'],
  [['GET', 'POST'], '/oauth2/userinfo'],
  [['GET', 'POST'], '/oauth2/end-session'],
  // The provider's own page asking a person to confirm a sign-out it cannot match to their session.
  [['POST'], '/oauth2/end-session/confirm'],
  [['POST'], '/oauth2/revoke'],
  [['POST'], '/oauth2/introspect'],
  // The consent page: the application's public name, and the person's answer.
  [['GET'], '/oauth2/public-client'],
  [['POST'], '/oauth2/consent'],
  // The sign-in page, once the product's own steps after the password are done.
  [['POST'], '/oauth2/continue'],
];

const FORM = 'application/x-www-form-urlencoded';

/** The body as better-auth reads it: form posts as they came, JSON again as JSON. */
function bodyOf(request: FastifyRequest): string | undefined {
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === undefined) return undefined;
  return typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
}

export const identityProviderRoutes: FastifyPluginAsync = async (app) => {
  // The token, revocation and introspection endpoints take form posts (RFC 6749); only in this scope.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, body);
  });
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const headers = fromNodeHeaders(request.headers);
    // better-auth reads the client address there: only the one Fastify trusts (its proxy settings).
    headers.set('x-forwarded-for', request.ip);
    const response = await app.auth.handler(
      new Request(new URL(request.url, app.env.PUBLIC_URL), { method: request.method, headers, body: bodyOf(request) }),
    );
    reply.status(response.status);
    response.headers.forEach((value, key) => {
      if (key !== 'set-cookie' && key !== 'content-length') reply.header(key, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    return reply.send(Buffer.from(await response.arrayBuffer()));
  };
  for (const [method, path] of PROVIDER_ENDPOINTS) {
    app.route({ method, url: `${AUTH_BASE_PATH}${path}`, schema: { hide: true }, handler: forward });
  }
};

/**
 * OpenID discovery: one document for the product's own ID tokens and the platform's applications.
 * The OAuth provider's metadata (authorization code with PKCE S256, token, userinfo, end-session,
 * the JWKS), with the issuer the jwt plugin signs both kinds of token with (PUBLIC_URL), and the
 * product claims both carry.
 */
export const wellKnownRoutes: FastifyPluginAsync = async (app) => {
  app.get('/.well-known/openid-configuration', { schema: { hide: true } }, async (_request, reply) => {
    const metadata = await app.auth.api.getOpenIdConfig();
    reply.header('cache-control', 'public, max-age=3600');
    return {
      ...metadata,
      claims_supported: [...new Set([...metadata.claims_supported, 'given_name', 'family_name', ...PRODUCT_CLAIMS])],
    };
  });
};
