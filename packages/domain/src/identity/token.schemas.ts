import { z } from 'zod';
import { ROLES } from '../roles/roles.js';
import { PRODUCT_TYPES } from '../product/product-types.js';

export const GroupsDataEntrySchema = z.object({
  _id: z.string(),
  name: z.string(),
  parent: z.string().nullable(),
  role: z.enum(ROLES),
  productType: z.enum(PRODUCT_TYPES),
  inactive: z.boolean(),
});
export type GroupsDataEntry = z.infer<typeof GroupsDataEntrySchema>;

export const AppMetadataSchema = z.object({
  stripeCustomerId: z.string().nullable(),
  role: z.enum(ROLES),
  orgSpecificRoles: z.record(z.string(), z.enum(ROLES)),
  subscribedOrgs: z.array(z.string()),
  activeOrg: z.string().nullable(),
  paymentIssue: z.boolean(),
  /**
   * The person's own subscription is active (decision 0035): what a subscribed member needs to reach
   * the organisation's cases. Absent from tokens minted before it existed.
   */
  subscriptionActive: z.boolean().default(false),
});
export type AppMetadata = z.infer<typeof AppMetadataSchema>;

/** The ID token's claims: the standard ones plus the product claims of spec section 3 (decision 5). */
export const IdTokenPayloadSchema = z.object({
  sub: z.string(),
  iss: z.string(),
  aud: z.union([z.string(), z.array(z.string())]),
  iat: z.number(),
  exp: z.number(),
  /** The session the token was minted for: the token dies with it. */
  sid: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  given_name: z.string(),
  family_name: z.string(),
  role: z.enum(ROLES),
  groups: z.array(z.string()),
  permissions: z.array(z.string()),
  productType: z.enum(PRODUCT_TYPES),
  aiActive: z.boolean(),
  org: z.string().nullable(),
  inactive: z.boolean(),
  app_metadata: AppMetadataSchema,
  groupsData: z.array(GroupsDataEntrySchema),
  /**
   * How the session was signed in (RFC 8176): ['pwd'] a password, ['pwd', 'otp'] with an
   * authenticator app or a recovery code, ['pwd', 'hwk'] with a passkey after the password,
   * ['hwk', 'user'] a passkey alone (decision 0066). Absent from tokens minted before it existed.
   */
  amr: z.array(z.string()).optional(),
  /** Present on a View-As-User token: the super admin acting. */
  act: z.object({ sub: z.string() }).optional(),
});
export type IdTokenPayload = z.infer<typeof IdTokenPayloadSchema>;

/** The login result the web app stores (spec section 3). */
export const LoginResultSchema = z.object({
  idToken: z.string(),
  idTokenPayload: IdTokenPayloadSchema,
  fromSkeletonKey: z.boolean().optional(),
});
export type LoginResult = z.infer<typeof LoginResultSchema>;

export const TokenResponseSchema = z.object({ idToken: z.string(), idTokenPayload: IdTokenPayloadSchema });
export type TokenResponse = z.infer<typeof TokenResponseSchema>;
