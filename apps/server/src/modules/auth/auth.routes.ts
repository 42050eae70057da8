import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AcceptLicenseBodySchema,
  ChangeOrgBodySchema,
  InviteUnaffiliatedBodySchema,
  RegisterBodySchema,
  ResetPasswordBodySchema,
  ResetRequestBodySchema,
  SignedInSchema,
  SignInAnswerSchema,
  SignInBodySchema,
  SignUpBodySchema,
  SignUpInvitationQuerySchema,
  SignUpInvitationSchema,
  VerificationEmailBodySchema,
} from '@patientsim/domain/auth/auth.schemas';
import {
  PasskeySignInBodySchema,
  SecondFactorBodySchema,
  SignInResultSchema,
  WebAuthnJsonSchema,
} from '@patientsim/domain/auth/two-factor.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { TokenResponseSchema } from '@patientsim/domain/identity/token.schemas';
import { EndViewAsBodySchema, LoginAsBodySchema, LoginAsResponseSchema } from '@patientsim/domain/auth/view-as.schemas';
import { AppError } from '../../lib/errors.js';
import { currentUser } from '../../lib/access.js';
import * as emailVerification from './email-verification.service.js';
import * as passwords from './password.service.js';
import * as signInService from './sign-in.service.js';
import * as signUpService from './sign-up.service.js';
import * as viewAs from './view-as.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 403, 404, 409, 422, 429);
const ok = { ok: true } as const;

/**
 * The request's headers as better-auth reads them, with the client address Fastify trusts (its
 * proxy settings) in X-Forwarded-For, where better-auth looks for it: never one the client sent.
 */
const headersOf = (request: FastifyRequest) => {
  const headers = fromNodeHeaders(request.headers);
  headers.set('x-forwarded-for', request.ip);
  return headers;
};
const setCookies = (reply: FastifyReply, cookies: string[]) => {
  if (cookies.length > 0) reply.header('set-cookie', cookies);
};

/** Identity routes under /api/users: sign-in, tokens, sign-up, reset, verification, license, org choice. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['identity'];

  app.post(
    '/auth/sign-in',
    {
      schema: {
        tags,
        description:
          'Signed in (session and device cookies), or, for an account with a second factor, the methods to finish with and the two-factor cookie (10 minutes), no session yet.',
        body: SignInBodySchema,
        response: { 200: SignInResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { cookies, ...answer } = await signInService.signIn({ ctx: app, ...request.body, headers: headersOf(request) });
      setCookies(reply, cookies);
      return answer;
    },
  );

  // The second step of a sign-in (decision 0066), with the two-factor cookie of the password's step.
  app.post(
    '/auth/sign-in/two-factor',
    {
      schema: {
        tags,
        description: 'A code of the authenticator app or a recovery code (used once) after the password; answers as a sign-in.',
        body: SecondFactorBodySchema,
        response: { 200: SignInAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { cookies, ...answer } = await signInService.verifySecondFactor({
        ctx: app,
        body: request.body,
        headers: headersOf(request),
      });
      setCookies(reply, cookies);
      return answer;
    },
  );

  app.post(
    '/auth/sign-in/passkey/options',
    {
      schema: {
        tags,
        description:
          "WebAuthn authentication options (for @simplewebauthn/browser's startAuthentication) offering the passkeys of the person whose password was just checked.",
        response: { 200: WebAuthnJsonSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { cookies, options } = await signInService.passkeySignInOptions({ ctx: app, headers: headersOf(request) });
      setCookies(reply, cookies);
      return options;
    },
  );

  app.post(
    '/auth/sign-in/passkey',
    {
      schema: {
        tags,
        description: "The browser's answer to the passkey options, after the password only; answers as a sign-in.",
        body: PasskeySignInBodySchema,
        response: { 200: SignInAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { cookies, ...answer } = await signInService.signInWithPasskey({
        ctx: app,
        response: request.body.response,
        headers: headersOf(request),
      });
      setCookies(reply, cookies);
      return answer;
    },
  );

  app.post('/auth/sign-out', { schema: { tags, response: { 200: OkSchema, ...errors } } }, async (request, reply) => {
    setCookies(reply, await signInService.signOut({ ctx: app, headers: headersOf(request) }));
    return ok;
  });

  app.post('/auth/token', { schema: { tags, response: { 200: TokenResponseSchema, ...errors } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { cookies, ...token } = await signInService.issueIdToken({ ctx: app, headers: headersOf(request) });
    setCookies(reply, cookies);
    return token;
  });

  app.post(
    '/auth/accept-license',
    { schema: { tags, body: AcceptLicenseBodySchema, response: { 200: OkSchema, ...errors } } },
    async (request) => {
      await signInService.acceptLicense({ ctx: app, ...request.body, ip: request.ip });
      return ok;
    },
  );

  app.post(
    '/invitations/invite-unaffiliated',
    { schema: { tags, body: InviteUnaffiliatedBodySchema, response: { 200: OkSchema, ...errors } } },
    async (request) => {
      await signUpService.inviteUnaffiliated({ ctx: app, ...request.body, ip: request.ip });
      return ok;
    },
  );

  app.get(
    '/auth/signup-invitation',
    {
      schema: {
        tags,
        querystring: SignUpInvitationQuerySchema,
        response: { 200: SignUpInvitationSchema, ...errors },
      },
    },
    (request) => signUpService.describeSignUpInvitation({ ctx: app, ...request.query }),
  );

  app.post(
    '/auth/sign-up',
    { schema: { tags, body: SignUpBodySchema, response: { 200: SignedInSchema, ...errors } } },
    async (request, reply) => {
      const { cookies, user } = await signUpService.signUp({
        ctx: app,
        body: request.body,
        ip: request.ip,
        headers: headersOf(request),
      });
      setCookies(reply, cookies);
      return { user };
    },
  );

  app.post(
    '/auth/register',
    {
      schema: {
        tags,
        description: 'Sign-up without an invitation token: the account must verify its address before anything else.',
        body: RegisterBodySchema,
        response: { 200: OkSchema, ...errors },
      },
    },
    async (request) => {
      await signUpService.register({ ctx: app, body: request.body, ip: request.ip });
      return ok;
    },
  );

  app.post(
    '/auth/request-password-reset',
    { schema: { tags, body: ResetRequestBodySchema, response: { 200: OkSchema, ...errors } } },
    async (request) => {
      await passwords.requestPasswordReset({ ctx: app, email: request.body.email, ip: request.ip });
      return ok;
    },
  );

  app.post(
    '/auth/reset-password',
    { schema: { tags, body: ResetPasswordBodySchema, response: { 200: OkSchema, ...errors } } },
    async (request, reply) => {
      setCookies(reply, await passwords.resetPassword({ ctx: app, ...request.body, headers: headersOf(request) }));
      return ok;
    },
  );

  app.post(
    '/jobs/verification-email',
    {
      preHandler: app.signedIn({ allowUnverified: true }),
      schema: { tags, security: [{ bearer: [] }], body: VerificationEmailBodySchema, response: { 200: OkSchema, ...errors } },
    },
    async (request) => {
      const actor = currentUser(request);
      // Only for oneself; a super admin may resend for anyone.
      if (request.body.user_id !== actor.id && actor.role !== 'SUPER_ADMIN') throw new AppError('NOT_FOUND');
      await emailVerification.sendVerificationEmail({ ctx: app, userId: request.body.user_id });
      return ok;
    },
  );

  app.post(
    '/auth/changeOrg',
    {
      // Choosing among one's own organisations comes before the verify screen (spec section 2).
      preHandler: app.signedIn({ allowUnverified: true }),
      schema: { tags, security: [{ bearer: [] }], body: ChangeOrgBodySchema, response: { 200: OkSchema, ...errors } },
    },
    async (request) => {
      await signInService.changeOrganisation({
        ctx: app,
        userId: currentUser(request).id,
        orgId: request.body.orgId,
        ip: request.ip,
      });
      return ok;
    },
  );

  app.post(
    '/auth/loginAs',
    {
      preHandler: app.requirePermission('access:login-as'),
      schema: {
        tags,
        description: 'View As User: an ID token for a member of an organisation, naming the super admin in `act`.',
        security: [{ bearer: [] }],
        body: LoginAsBodySchema,
        response: { 200: LoginAsResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return viewAs.loginAs({ ctx: app, actor: currentUser(request), ...request.body, ip: request.ip });
    },
  );

  app.post(
    '/auth/loginAs/end',
    {
      // The viewed person's token: their address may be unverified, the view must still end.
      preHandler: app.signedIn({ allowUnverified: true }),
      // The one change a view makes: ending itself (audited as the super admin's).
      config: { viewAs: 'write' },
      schema: {
        tags,
        description: 'Ends the View-As-User session of the token that calls it.',
        security: [{ bearer: [] }],
        body: EndViewAsBodySchema,
        response: { 200: OkSchema, ...errors },
      },
    },
    async (request) => {
      await viewAs.endViewAs({ ctx: app, actor: currentUser(request), ...request.body, ip: request.ip });
      return ok;
    },
  );
};
