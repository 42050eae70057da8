import {
  type Application,
  type RegisterApplicationBody,
  RegisterApplicationBodySchema,
  type RegisteredApplication,
} from '@patientsim/domain/applications/application.schemas';
import { APIError } from 'better-auth/api';
import type { Database } from '../../db/client.js';
import type { Auth } from '../../identity/auth.js';
import { type AuditActor, auditAs } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import * as repository from './applications.repository.js';

type Ctx = { db: Database; auth: Auth };

const isLoopback = (uri: string) => ['localhost', '127.0.0.1'].includes(new URL(uri).hostname);

function toApplication(row: repository.ApplicationRow): Application {
  return {
    id: row.id,
    name: row.name ?? row.clientId,
    clientId: row.clientId,
    type: row.tokenEndpointAuthMethod === 'none' ? 'public' : 'confidential',
    redirectUris: row.redirectUris,
    postLogoutRedirectUris: row.postLogoutRedirectUris ?? [],
    createdAt: (row.createdAt ?? new Date(0)).toISOString(),
  };
}

/** The registered applications; a client secret is never part of them. */
export async function listApplications({ db }: { db: Database }): Promise<Application[]> {
  return (await repository.findApplications(db)).map(toApplication);
}

/**
 * Registers one of the platform's own applications through the OAuth provider plugin: it signs
 * people in without a consent page (first-party), may end their session on sign-out, and uses
 * PKCE (the plugin's default). A confidential application authenticates with a secret and may
 * receive refresh tokens; its secret is returned this once and only its hash is kept.
 */
export async function registerApplication({
  ctx,
  actor,
  body,
  ip,
  headers,
}: {
  ctx: Ctx;
  actor: AuditActor;
  body: RegisterApplicationBody;
  ip: string;
  /** The request's: the plugin registers a client for the session its cookie names, the caller's. */
  headers: Headers;
}): Promise<RegisteredApplication> {
  const { name, type, redirectUris, postLogoutRedirectUris } = RegisterApplicationBodySchema.parse(body);
  const isPublic = type === 'public';
  const created = await ctx.auth.api
    .adminCreateOAuthClient({
      headers,
      body: {
        client_name: name,
        redirect_uris: redirectUris,
        ...(postLogoutRedirectUris.length > 0 ? { post_logout_redirect_uris: postLogoutRedirectUris } : {}),
        // http://localhost addresses (development) are allowed to "native" clients only, by the
        // plugin's redirect policy (RFC 8252); a "web" client takes https addresses only.
        application_type: [...redirectUris, ...postLogoutRedirectUris].some(isLoopback) ? 'native' : 'web',
        token_endpoint_auth_method: isPublic ? 'none' : 'client_secret_basic',
        grant_types: isPublic ? ['authorization_code'] : ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: isPublic ? 'openid profile email' : 'openid profile email offline_access',
        skip_consent: true,
        enable_end_session: true,
      },
    })
    .catch((error: unknown) => {
      // No session behind the cookie, or not a super admin's.
      if (error instanceof APIError && error.statusCode === 401) throw new AppError('FORBIDDEN');
      // The plugin's own checks of the addresses, past the shared schema's.
      if (error instanceof APIError && error.statusCode === 400) {
        const description = (error.body as { error_description?: unknown } | undefined)?.error_description;
        throw new AppError('VALIDATION_FAILED', typeof description === 'string' ? { message: description } : {});
      }
      throw error;
    });
  const row = await repository.findApplicationByClientId(ctx.db, created.client_id);
  if (!row) throw new Error('the registered application was not found');
  await auditAs(ctx.db, actor, {
    action: 'application.register',
    targetType: 'application',
    targetId: row.id,
    targetName: name,
    ipAddress: ip,
    details: { clientId: row.clientId, type },
  });
  return { application: toApplication(row), clientSecret: isPublic ? null : (created.client_secret ?? null) };
}

/** Removes an application: it can no longer sign anyone in, and its tokens stop working. */
export async function removeApplication({ ctx, actor, id, ip }: { ctx: Ctx; actor: AuditActor; id: string; ip: string }) {
  const removed = await repository.deleteApplication(ctx.db, id);
  if (!removed) throw new AppError('NOT_FOUND');
  await auditAs(ctx.db, actor, {
    action: 'application.remove',
    targetType: 'application',
    targetId: removed.id,
    targetName: removed.name ?? removed.clientId,
    ipAddress: ip,
    details: { clientId: removed.clientId },
  });
}
