import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import type { Env } from './config/env.js';
import type { DatabaseHandle } from './db/client.js';
import { createAuth } from './identity/auth.js';
import { createDeviceCookies } from './identity/device-cookies.js';
import { createVerificationTokens } from './identity/email-ownership.js';
import { createLicenseTokens } from './identity/license.js';
import { createTokenService } from './identity/tokens.js';
import { createRateLimiter, type RateLimiter } from './lib/rate-limiter.js';
import { createLocalInvalidations, createRedisInvalidations } from './lib/invalidation.js';
import { createRedisClient, isAnswering, untilReady } from './lib/redis.js';
import { createReadCache, READ_CACHE_TTL_MS } from './lib/read-cache.js';
import { createRedisSessionStorage } from './identity/session-storage.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { applicationsRoutes } from './modules/applications/applications.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { notifyLockout } from './modules/auth/sign-in.service.js';
import { authoringRoutes } from './modules/authoring/authoring.routes.js';
import { casesGraphql } from './modules/cases/cases.graphql.js';
import { casePeerRoutes, caseToolRoutes } from './modules/case-copy/case-copy.routes.js';
import { casesRoutes } from './modules/cases/cases.routes.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { twoFactorRoutes } from './modules/account/two-factor.routes.js';
import { secondFactorShortfall, secondFactorStateOf } from './identity/second-factor.js';
import { organisationsRoutes } from './modules/organisations/organisations.routes.js';
import { integrationsRoutes } from './modules/integrations/integrations.routes.js';
import { inviteeRoutes } from './modules/invitations/invitee.routes.js';
import { invitationsRoutes } from './modules/invitations/invitations.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { userAdminRoutes } from './modules/user-admin/user-admin.routes.js';
import { mediaRoutes } from './modules/media/media.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { paymentRoutes } from './modules/payment/payment.routes.js';
import { referenceRoutes } from './modules/reference/reference.routes.js';
import { tutorialsRoutes } from './modules/tutorials/tutorials.routes.js';
import authenticate from './plugins/app/authenticate.js';
import orgAccess from './plugins/app/org-access.js';
import errorHandler from './plugins/app/error-handler.js';
import jsonBody from './plugins/app/json-body.js';
import sameOrigin from './plugins/app/same-origin.js';
import services from './plugins/app/services.js';
import docs from './plugins/external/docs.js';
import security from './plugins/external/security.js';
import loadShedding, { type LoadSheddingOptions } from './plugins/external/under-pressure.js';
import webApp from './plugins/external/web-app.js';
import { verifyEmailRoutes } from './modules/auth/verify-email.routes.js';
import { identityProviderRoutes, wellKnownRoutes } from './modules/auth/well-known.routes.js';
import { buildApplicationClaims } from './modules/users/claims.js';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export type AppDeps = {
  env: Env;
  database: DatabaseHandle;
  secret: string;
  logger?: FastifyServerOptions['logger'];
  mailer?: Mailer;
  webRoot?: string;
  /** Called for every route as it is registered (the authorization matrix test lists them). */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
  /**
   * How long hot identity reads are cached (ms) when no write is announced; writes clear them at
   * once, in every process with REDIS_URL.
   */
  cacheTtlMs?: number;
  /** The rate-limit counters; by default in Redis with REDIS_URL, else in memory (tests give their own). */
  limiter?: RateLimiter;
  /**
   * Overload protection (decisions 0018 and 0047): on with measured limits, except under NODE_ENV=test unless
   * a test turns it on (tests check behaviour, not capacity; a machine running many test files at
   * once would have their requests turned away).
   */
  loadShedding?: Partial<LoadSheddingOptions>;
};

/** The Fastify instance with every plugin and route; tests build it too. */
export async function buildApp({
  env,
  database,
  secret,
  logger = false,
  mailer,
  webRoot = WEB_DIST,
  onRoute,
  cacheTtlMs = READ_CACHE_TTL_MS,
  limiter,
  loadShedding: loadSheddingOptions,
}: AppDeps) {
  const app = Fastify({
    logger,
    // X-Forwarded-For is believed only from the named proxies; anyone else could forge it.
    trustProxy: env.TRUSTED_PROXIES.length > 0 ? env.TRUSTED_PROXIES : false,
    bodyLimit: 1024 * 1024,
    // Every request is logged only at debug level; failures and slow requests always are (below).
    logController: new LogController({ disableRequestLogging: env.LOG_LEVEL !== 'debug' && env.LOG_LEVEL !== 'trace' }),
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 500 || reply.elapsedTime > 1000) {
      request.log.warn(
        { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    }
  });
  if (onRoute) app.addHook('onRoute', (route) => onRoute({ method: route.method, url: route.url }));
  const redis = env.REDIS_URL
    ? createRedisClient(env.REDIS_URL, { onError: (err) => app.log.warn({ err }, 'Redis connection failed; retrying') })
    : null;
  // Several processes hear each other's writes through Redis; one process has nobody to tell. A
  // process that cannot reach Redis as it starts does not start.
  const invalidations = redis
    ? await untilReady(redis)
        .then(() => createRedisInvalidations(redis))
        .catch((error: unknown) => {
          redis.disconnect();
          throw error;
        })
    : createLocalInvalidations();
  const activeMailer =
    mailer ??
    createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: path.join(env.DATA_DIR, 'outbox'), log: app.log });
  const cache = createReadCache({ ttlMs: cacheTtlMs, invalidations });
  // Sessions: shared in Redis across processes, straight from the database otherwise (decision
  // 0060: a copy in process memory cost every sign-in more than it saved the renewals).
  const sessionStorage = redis ? createRedisSessionStorage(redis) : undefined;
  const rateLimiter = limiter ?? createRateLimiter({ redis });
  const deviceCookies = createDeviceCookies({ secret, isSecure: new URL(env.PUBLIC_URL).protocol === 'https:' });
  const auth = createAuth({
    db: database.db,
    publicUrl: env.PUBLIC_URL,
    secret,
    mailer: activeMailer,
    log: app.log,
    sessionStorage,
    onUserChange: () => cache.clear(),
    limits: {
      limiter: rateLimiter,
      deviceCookies,
      onLockout: (email, lockout) => notifyLockout({ db: database.db, mailer: activeMailer, env }, email, lockout),
    },
    applicationClaims: (userId, scopes) => buildApplicationClaims(database.db, userId, scopes),
    isSecondFactorMissing: async (userId, amr) =>
      secondFactorShortfall(await secondFactorStateOf({ db: database.db, cache, env }, userId), amr) !== null,
  });

  await app.register(errorHandler, { isRedisDisconnected: () => redis !== null && redis.status !== 'ready' });
  await app.register(jsonBody);
  await app.register(services, {
    env,
    db: database.db,
    auth,
    tokens: createTokenService({ db: database.db, auth, secret, issuer: env.PUBLIC_URL, invalidations }),
    licenseTokens: createLicenseTokens(secret),
    verificationTokens: createVerificationTokens(secret),
    deviceCookies,
    mailer: activeMailer,
    limiter: rateLimiter,
    cache,
  });
  await app.register(authenticate);
  await app.register(orgAccess);
  await app.register(security);
  await app.register(loadShedding, {
    db: database.db,
    options: { enabled: env.NODE_ENV !== 'test', ...loadSheddingOptions },
  });
  await app.register(sameOrigin);
  if (env.API_INTROSPECTION) await app.register(docs);

  // Liveness: the process runs. A restart does not bring a dependency back, so this never asks one.
  app.get('/healthz', { schema: { hide: true } }, () => ({ status: 'ok' }));
  // Readiness: what a request needs answers now. The database reads a real table (a bare `select 1`
  // touches no file, so it passes on an engine that cannot read its tables); Redis answers a PING.
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const [isDatabaseReady, isRedisReady] = await Promise.all([
      database.db.execute(sql`select 1 from "user" limit 1`).then(
        () => true,
        () => false,
      ),
      redis ? isAnswering(redis) : null,
    ]);
    const state = (isReady: boolean) => (isReady ? 'ready' : 'unavailable');
    const checks = { database: state(isDatabaseReady), ...(isRedisReady === null ? {} : { redis: state(isRedisReady) }) };
    if (isDatabaseReady && isRedisReady !== false) return { status: 'ready', checks };
    return reply.status(503).send({ status: 'unavailable', checks });
  });

  await app.register(identityProviderRoutes);
  await app.register(wellKnownRoutes);

  await app.register(
    async (api) => {
      // zod compilers live in this scope only (mercurius fails to boot with them on the root).
      api.setValidatorCompiler(validatorCompiler);
      api.setSerializerCompiler(serializerCompiler);
      await api.register(authRoutes);
      await api.register(organisationsRoutes);
      await api.register(accountRoutes);
      await api.register(twoFactorRoutes);
      await api.register(inviteeRoutes);
      await api.register(invitationsRoutes);
      await api.register(userAdminRoutes);
      await api.register(usersRoutes);
      await api.register(notificationsRoutes);
      await api.register(tutorialsRoutes);
      await api.register(paymentRoutes);
      await api.register(integrationsRoutes);
      await api.register(auditRoutes);
      await api.register(applicationsRoutes);
    },
    { prefix: '/api/users' },
  );
  // The case API: GraphQL in a scope of its own (mercurius fails with the zod compilers), REST in a zod one.
  await app.register(casesGraphql);
  await app.register(async (cases) => {
    cases.setValidatorCompiler(validatorCompiler);
    cases.setSerializerCompiler(serializerCompiler);
    await cases.register(casesRoutes);
    await cases.register(casePeerRoutes);
    await cases.register(caseToolRoutes);
  });
  await app.register(async (files) => {
    files.setValidatorCompiler(validatorCompiler);
    files.setSerializerCompiler(serializerCompiler);
    await files.register(mediaRoutes);
    await files.register(verifyEmailRoutes);
    await files.register(referenceRoutes);
  });

  await app.register(webApp, { root: webRoot });
  await app.register(authoringRoutes);

  app.addHook('onClose', async () => {
    activeMailer.close();
    await invalidations.close();
    // A connection that cannot say goodbye (Redis out of reach) is simply dropped.
    await redis?.quit().catch(() => redis.disconnect());
  });
  return app;
}
