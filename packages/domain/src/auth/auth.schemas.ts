import { z } from 'zod';
import { PRODUCT_TYPES, SIGNUP_ACCOUNT_TYPES } from '../product/product-types.js';
import { IdSchema, LinkTokenSchema, TextSchema } from '../common/api.schemas.js';
import { LICENSE_VERSION } from '../common/constants.js';
import { PASSWORD_MAX_LENGTH } from './password-policy.js';

/** E-mail inputs are trimmed; on sign-up they are lowercased too (spec section 5). */
export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: 'Invalid email address' }));

/** A password as typed; strength is checked separately so the answer can carry `invalid_password`. */
export const PasswordSchema = z.string().min(1, 'Must specify a password.').max(PASSWORD_MAX_LENGTH);

/** A person's name: any letters, no control characters (they have no place in a name, and NUL breaks storage). */
export const NameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^\P{Cc}*$/u, 'Must not contain control characters');

export const SignInBodySchema = z.object({ email: EmailSchema, password: PasswordSchema });
export type SignInBody = z.infer<typeof SignInBodySchema>;

/** Plain sign-up, e-mail first (decision 9). */
export const InviteUnaffiliatedBodySchema = z.object({
  email: EmailSchema,
  accountType: z.enum(SIGNUP_ACCOUNT_TYPES),
});
export type InviteUnaffiliatedBody = z.infer<typeof InviteUnaffiliatedBodySchema>;

/** The invite variant of sign-up: the e-mailed token plus names and password. */
export const SignUpBodySchema = z.object({
  token: LinkTokenSchema,
  email: EmailSchema,
  given_name: NameSchema,
  family_name: NameSchema,
  password: PasswordSchema,
});
export type SignUpBody = z.infer<typeof SignUpBodySchema>;

/**
 * The invite variant of sign-up reached without an invitation token: the account is created with
 * an unverified address and must verify it before it can do anything (decision 0012).
 */
export const RegisterBodySchema = SignUpBodySchema.omit({ token: true });
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const ResetRequestBodySchema = z.object({ email: EmailSchema });
export type ResetRequestBody = z.infer<typeof ResetRequestBodySchema>;

export const ResetPasswordBodySchema = z.object({ token: LinkTokenSchema, newPassword: PasswordSchema });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBodySchema>;

export const AcceptLicenseBodySchema = z.object({ token: TextSchema.min(10).max(4096), version: z.literal(LICENSE_VERSION) });
export type AcceptLicenseBody = z.infer<typeof AcceptLicenseBodySchema>;

export const ChangeOrgBodySchema = z.object({ orgId: IdSchema });
export type ChangeOrgBody = z.infer<typeof ChangeOrgBodySchema>;

export const VerificationEmailBodySchema = z.object({
  user_id: IdSchema,
  client_id: TextSchema.max(200).optional(),
});
export type VerificationEmailBody = z.infer<typeof VerificationEmailBodySchema>;

export const ProductTypeSchema = z.enum(PRODUCT_TYPES);

/** The answer of sign-in and sign-up: the session cookie is set alongside. */
export const SignedInSchema = z.object({ user: z.object({ id: z.string(), email: z.string(), emailVerified: z.boolean() }) });
export type SignedIn = z.infer<typeof SignedInSchema>;

/**
 * The answer of sign-in: the signed-in user and, while the account has not accepted the current
 * license, the short-lived token the license screen takes (decision 14), else null. The client goes
 * to the license screen at once instead of asking for an ID token it would be refused.
 */
export const SignInAnswerSchema = SignedInSchema.extend({ licenseToken: z.string().nullable() });
export type SignInAnswer = z.infer<typeof SignInAnswerSchema>;

export const SignUpInvitationQuerySchema = z.object({ token: LinkTokenSchema, email: EmailSchema });
/** What the invite variant of sign-up shows before the person fills it in. */
export const SignUpInvitationSchema = z.object({ email: z.string(), orgName: z.string().nullable() });
export type SignUpInvitation = z.infer<typeof SignUpInvitationSchema>;

/**
 * The signed authorization request the OpenID provider hands the sign-in and consent pages
 * (decision 0065): the application's query with the provider's `sig` and `exp`. The pages pass it
 * back as it came; the provider verifies the signature.
 */
export const OAuthQuerySchema = z
  .string()
  .min(1)
  .max(8192)
  .refine((query) => {
    const names = new Set(query.split('&').map((pair) => pair.split('=', 1)[0]));
    return names.has('sig') && names.has('client_id');
  }, 'Not a signed authorization request');

/** The provider's answer when a page continues an authorization: where the browser goes next. */
export const AuthorizationRedirectSchema = z.object({ url: z.url({ protocol: /^https?$/ }) });
export type AuthorizationRedirect = z.infer<typeof AuthorizationRedirectSchema>;

/** The signed authorization request in a page's query string, or null when it carries none. */
export function readOAuthQuery(search: string): string | null {
  const query = search.replace(/^\?/, '');
  return OAuthQuerySchema.safeParse(query).success ? query : null;
}
