import fp from 'fastify-plugin';
import type { Env } from '../../config/env.js';
import type { Database } from '../../db/client.js';
import type { Auth } from '../../identity/auth.js';
import type { DeviceCookies } from '../../identity/device-cookies.js';
import type { VerificationTokens } from '../../identity/email-ownership.js';
import type { LicenseTokens } from '../../identity/license.js';
import type { TokenService } from '../../identity/tokens.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import type { ReadCache } from '../../lib/read-cache.js';
import type { Mailer } from '../../mail/mailer.js';

export type Services = {
  env: Env;
  db: Database;
  auth: Auth;
  tokens: TokenService;
  licenseTokens: LicenseTokens;
  /** E-mail verification links bound to one account and one address. */
  verificationTokens: VerificationTokens;
  /** The cookies that make a browser known to an account (sign-in limits, decision 0039). */
  deviceCookies: DeviceCookies;
  mailer: Mailer;
  limiter: RateLimiter;
  /** Hot identity reads (claims, groups); writes to users, groups or memberships clear it through changeIdentity. */
  cache: ReadCache;
};

declare module 'fastify' {
  // Module augmentation needs an interface; it adds the Services members to the instance.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions, @typescript-eslint/no-empty-object-type
  interface FastifyInstance extends Services {}
}

/** Decorates the instance with the services every module uses. */
export default fp<Services>(
  async (app, services) => {
    app.decorate('env', services.env);
    app.decorate('db', services.db);
    app.decorate('auth', services.auth);
    app.decorate('tokens', services.tokens);
    app.decorate('licenseTokens', services.licenseTokens);
    app.decorate('verificationTokens', services.verificationTokens);
    app.decorate('deviceCookies', services.deviceCookies);
    app.decorate('mailer', services.mailer);
    app.decorate('limiter', services.limiter);
    app.decorate('cache', services.cache);
  },
  { name: 'services' },
);
