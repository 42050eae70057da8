import { z } from 'zod';
import { TextSchema } from '../common/api.schemas.js';

/**
 * The platform's applications that sign their users in through PatientSim (OpenID Connect,
 * decision 0065), as a super admin registers them.
 */

/** How many redirect (or post-logout redirect) addresses one application may register. */
export const MAX_REDIRECT_URIS = 10;
export const APPLICATION_NAME_MAX_LENGTH = 80;

/**
 * Public: a browser or mobile application that cannot keep a secret (PKCE only). Confidential: a
 * server that holds a client secret and may receive refresh tokens.
 */
export const APPLICATION_TYPES = ['public', 'confidential'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];
export const APPLICATION_TYPE_LABELS: Record<ApplicationType, string> = {
  public: 'Public (browser or mobile app)',
  confidential: 'Confidential (server with a secret)',
};

export const INVALID_REDIRECT_URI_MESSAGE = 'Use an https address, or http://localhost for development';

/** Whether `value` is an address an application may be sent back to: https, or http on localhost. */
export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
}

export const RedirectUriSchema = TextSchema.max(2000).refine(isAllowedRedirectUri, INVALID_REDIRECT_URI_MESSAGE);

/** Addresses typed one a line: blank lines and surrounding spaces do not count. */
export function splitLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export const RegisterApplicationBodySchema = z.object({
  name: TextSchema.trim().min(1, 'Name is required').max(APPLICATION_NAME_MAX_LENGTH),
  type: z.enum(APPLICATION_TYPES),
  redirectUris: z.array(RedirectUriSchema).min(1, 'At least one redirect URI is required').max(MAX_REDIRECT_URIS),
  postLogoutRedirectUris: z.array(RedirectUriSchema).max(MAX_REDIRECT_URIS).default([]),
});
export type RegisterApplicationBody = z.input<typeof RegisterApplicationBodySchema>;

export const ApplicationSchema = z.object({
  id: z.string(),
  name: z.string(),
  clientId: z.string(),
  type: z.enum(APPLICATION_TYPES),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  createdAt: z.string(),
});
export type Application = z.infer<typeof ApplicationSchema>;

export const ApplicationListSchema = z.object({ applications: z.array(ApplicationSchema) });
export type ApplicationList = z.infer<typeof ApplicationListSchema>;

/** The answer to a registration: the client secret of a confidential application, shown this once. */
export const RegisteredApplicationSchema = z.object({
  application: ApplicationSchema,
  clientSecret: z.string().nullable(),
});
export type RegisteredApplication = z.infer<typeof RegisteredApplicationSchema>;

/** The scopes an application may ask for, in words for the consent page. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  openid: 'Sign you in with your PatientSim account',
  profile: 'See your name, role, organisation and permissions',
  email: 'See your email address',
  offline_access: 'Stay signed in when you are not using it',
};
