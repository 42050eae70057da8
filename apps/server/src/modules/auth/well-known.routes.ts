import type { FastifyPluginAsync } from 'fastify';
import { AUTH_BASE_PATH } from '../../identity/auth.js';

/** OpenID discovery for the ID tokens this server issues. */
export const wellKnownRoutes: FastifyPluginAsync = async (app) => {
  app.get('/.well-known/openid-configuration', { schema: { hide: true } }, () => {
    const issuer = app.env.PUBLIC_URL;
    return {
      issuer,
      jwks_uri: `${issuer}${AUTH_BASE_PATH}/jwks`,
      authorization_endpoint: `${issuer}/auth/login`,
      token_endpoint: `${issuer}/api/users/auth/token`,
      response_types_supported: ['token id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['EdDSA'],
      scopes_supported: ['openid', 'profile', 'email'],
      claims_supported: [
        'sub',
        'iss',
        'aud',
        'iat',
        'exp',
        'email',
        'email_verified',
        'given_name',
        'family_name',
        'role',
        'groups',
        'permissions',
        'productType',
        'aiActive',
        'org',
        'inactive',
        'app_metadata',
        'groupsData',
      ],
    };
  });
};
