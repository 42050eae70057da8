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

/** After the host: an optional port, then a path or query; never a fragment or spaces. */
const REST = String.raw`(?::\d{1,5})?(?:[/?][^\s#]*)?`;
/** https on a named host (no credentials, not a loopback host: the OpenID provider refuses those). */
const HTTPS_URI = new RegExp(String.raw`^https://(?!localhost(?:[:/?]|$))(?!127\.)[A-Za-z0-9.-]+\.[A-Za-z0-9-]+${REST}$`);
/** http only on this machine, for development (RFC 8252 loopback redirects). */
const LOOPBACK_URI = new RegExp(String.raw`^http://(?:localhost|127\.0\.0\.1)${REST}$`);

/** Whether `value` is an address an application may be sent back to: https, or http on localhost. */
export function isAllowedRedirectUri(value: string): boolean {
  return HTTPS_URI.test(value) || LOOPBACK_URI.test(value);
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

/** Addresses typed one a line in a form field, each checked as the server checks them. */
function uriLines({ isRequired }: { isRequired: boolean }) {
  return z.string().transform((text, ctx) => {
    const lines = splitLines(text);
    if (isRequired && lines.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'At least one redirect URI is required' });
      return z.NEVER;
    }
    if (lines.length > MAX_REDIRECT_URIS) {
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_REDIRECT_URIS} addresses` });
      return z.NEVER;
    }
    const invalid = lines.find((line) => !RedirectUriSchema.safeParse(line).success);
    if (invalid !== undefined) {
      ctx.addIssue({ code: 'custom', message: `${invalid}: ${INVALID_REDIRECT_URI_MESSAGE}` });
      return z.NEVER;
    }
    return lines;
  });
}

/** The Register application form: the body, with the addresses typed one a line. */
export const RegisterApplicationFormSchema = z.object({
  name: RegisterApplicationBodySchema.shape.name,
  type: z.enum(APPLICATION_TYPES),
  redirectUris: uriLines({ isRequired: true }),
  postLogoutRedirectUris: uriLines({ isRequired: false }),
});
export type RegisterApplicationFormInput = z.input<typeof RegisterApplicationFormSchema>;
export type RegisterApplicationForm = z.output<typeof RegisterApplicationFormSchema>;
