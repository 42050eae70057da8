import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PasskeyParamsSchema,
  PasskeyRegisterBodySchema,
  PasskeySchema,
  PasswordConfirmationSchema,
  RecoveryCodesSchema,
  TotpEnrolmentSchema,
  TotpVerifyBodySchema,
  TwoFactorStatusSchema,
  WebAuthnJsonSchema,
} from '@patientsim/domain/auth/two-factor.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { isSessionLive } from '../../identity/sessions.js';
import { AppError } from '../../lib/errors.js';
import { errorResponses } from '../../lib/error-responses.js';
import * as service from './two-factor.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 422);
const BEARER = /^Bearer\s+(\S+)$/;
const NOT_IN_A_VIEW = 'This is not shown while viewing PatientSim as another user.';
const ok = { ok: true } as const;

/**
 * The caller by their session cookie: these routes must work while the enrolment gate refuses them
 * an ID token (decision 0066). A bearer token sent alongside must be the same person's, and never a
 * View-As-User token (as on the routes that say `viewAs: 'none'`). Cross-site writes carrying the
 * cookie are refused before (plugins/app/same-origin.ts).
 */
async function cookieCaller(app: FastifyInstance, request: FastifyRequest): Promise<service.CookieCaller> {
  const headers = fromNodeHeaders(request.headers);
  headers.set('x-forwarded-for', request.ip);
  const found = await app.auth.api.getSession({ headers, query: { disableRefresh: true } });
  if (!found) throw new AppError('UNAUTHENTICATED');
  if (!isSessionLive(found.session, found.user.id)) throw new AppError('SESSION_ENDED');
  const bearer = BEARER.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) {
    // The token only has to name the same person: its own session may be the one better-auth just
    // replaced (the app's first code), which the cookie already names.
    const payload = await app.tokens.verify(bearer);
    if (payload.act) throw new AppError('VIEW_AS_READ_ONLY', { message: NOT_IN_A_VIEW });
    if (payload.sub !== found.user.id) throw new AppError('FORBIDDEN');
  }
  return { userId: found.user.id, sessionToken: found.session.token, amr: found.session.amr ?? [], headers, ip: request.ip };
}

const setCookies = (reply: FastifyReply, cookies: string[]) => {
  if (cookies.length > 0) reply.header('set-cookie', cookies);
};

/** The account's second factors under /api/users/account (decision 0066). */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['account'];
  const security = [{ cookie: [] }];
  const config = { viewAs: 'none' } as const;

  app.get(
    '/account/two-factor',
    {
      config,
      schema: {
        tags,
        security,
        description: "The caller's authenticator app, recovery codes left, passkeys, and who requires a second factor of them.",
        response: { 200: TwoFactorStatusSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.getTwoFactorStatus(app, (await cookieCaller(app, request)).userId);
    },
  );

  app.post(
    '/account/two-factor/totp',
    {
      config,
      schema: {
        tags,
        security,
        description: 'Starts setting up an authenticator app: its otpauth URI and ten recovery codes, shown once.',
        body: PasswordConfirmationSchema,
        response: { 200: TotpEnrolmentSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.startTotpEnrolment(app, await cookieCaller(app, request), request.body.password);
    },
  );

  app.post(
    '/account/two-factor/totp/verify',
    {
      config,
      schema: {
        tags,
        security,
        description:
          'Enables the app being set up with its first code; this session then counts as having used it. The session cookie may be replaced: renew the ID token afterwards.',
        body: TotpVerifyBodySchema,
        response: { 200: OkSchema, ...errors },
      },
    },
    async (request, reply) => {
      setCookies(reply, await service.verifyTotpEnrolment(app, await cookieCaller(app, request), request.body.code));
      return ok;
    },
  );

  app.post(
    '/account/two-factor/totp/remove',
    {
      config,
      schema: { tags, security, body: PasswordConfirmationSchema, response: { 200: OkSchema, ...errors } },
    },
    async (request) => {
      await service.removeTotp(app, await cookieCaller(app, request), request.body.password);
      return ok;
    },
  );

  app.post(
    '/account/two-factor/recovery-codes',
    {
      config,
      schema: {
        tags,
        security,
        description: 'Ten new recovery codes, shown once; the old ones stop working.',
        body: PasswordConfirmationSchema,
        response: { 200: RecoveryCodesSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.renewRecoveryCodes(app, await cookieCaller(app, request), request.body.password);
    },
  );

  app.post(
    '/account/passkeys/options',
    {
      config,
      schema: {
        tags,
        security,
        description: "WebAuthn registration options for @simplewebauthn/browser's startRegistration (and the challenge cookie).",
        response: { 200: WebAuthnJsonSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { options, cookies } = await service.passkeyRegistrationOptions(app, await cookieCaller(app, request));
      setCookies(reply, cookies);
      return options;
    },
  );

  app.post(
    '/account/passkeys',
    {
      config,
      schema: {
        tags,
        security,
        description: "Registers the browser's answer to the registration options as a second factor.",
        body: PasskeyRegisterBodySchema,
        response: { 200: PasskeySchema, ...errors },
      },
    },
    async (request) => service.registerPasskey(app, await cookieCaller(app, request), request.body),
  );

  app.delete(
    '/account/passkeys/:id',
    {
      config,
      schema: { tags, security, params: PasskeyParamsSchema, response: { 200: OkSchema, ...errors } },
    },
    async (request) => {
      await service.removePasskey(app, await cookieCaller(app, request), request.params.id);
      return ok;
    },
  );
};
