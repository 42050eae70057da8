import { z } from 'zod';
import { EmailSchema } from '../auth/auth.schemas.js';
import { IdSchema, TextSchema } from '../common/api.schemas.js';
import { BULK_INVITE_MAX, GROUP_NAME_MAX } from '../common/constants.js';
import { GroupSchema } from '../groups/group.schemas.js';
import { PRODUCT_TYPES } from '../product/product-types.js';
import { ROLES } from '../roles/roles.js';
import { InviteSchema } from './invitation.schemas.js';

/** Spec section 5: the row messages of the bulk invite. */
export const INVALID_EMAIL_MESSAGE = 'Invalid email address';
export const ALREADY_IN_LIST_MESSAGE = 'Already in list';

/** One invited address (spec section 3, bulk invite entry): the role defaults to STUDENT. */
export const InviteEntrySchema = z.object({
  email: EmailSchema,
  role: z.enum(ROLES).default('STUDENT'),
});
export type InviteEntry = z.infer<typeof InviteEntrySchema>;

/** A new organisation created by the invitation (super admins only); seats default to 0 (spec 9). */
export const NewOrganisationSchema = z.object({
  name: TextSchema.trim().min(1, 'A name is required').max(GROUP_NAME_MAX, `At most ${GROUP_NAME_MAX} characters`),
  productType: z.enum(PRODUCT_TYPES),
  seats: z.number().int('Seats must be an integer').min(0).max(1_000_000).optional(),
});
export type NewOrganisation = z.infer<typeof NewOrganisationSchema>;

/** POST /invitations/invite (spec 7): invites up to 50 addresses into one organisation at once. */
export const InviteUsersBodySchema = z
  .object({
    users: z.array(InviteEntrySchema).min(1, 'Add at least one email').max(BULK_INVITE_MAX, `At most ${BULK_INVITE_MAX} emails`),
    throughSubscription: z.boolean().default(false),
    org: z.union([IdSchema, NewOrganisationSchema]),
    groupMembership: z.array(IdSchema).max(100).default([]),
  })
  .superRefine((body, context) => {
    const seen = new Set<string>();
    body.users.forEach((entry, index) => {
      if (seen.has(entry.email)) {
        context.addIssue({ code: 'custom', path: ['users', index, 'email'], message: ALREADY_IN_LIST_MESSAGE });
      }
      seen.add(entry.email);
    });
  });
export type InviteUsersBody = z.input<typeof InviteUsersBodySchema>;

/**
 * What happened to one address: `sent` (a new invitation), `resent` (its pending invitation was
 * mailed again with a fresh link), `already-member` (nothing sent), `refused` (with `message`).
 */
export const INVITE_OUTCOMES = ['sent', 'resent', 'already-member', 'refused'] as const;
export type InviteOutcome = (typeof INVITE_OUTCOMES)[number];

export const InviteResultSchema = z.object({
  user: z.object({ email: z.string(), hasAccount: z.boolean() }),
  createdOrg: GroupSchema.nullable(),
  outcome: z.enum(INVITE_OUTCOMES),
  message: z.string().optional(),
});
export type InviteResult = z.infer<typeof InviteResultSchema>;
export const InviteResultListSchema = z.array(InviteResultSchema);

/** GET invites/org/{id}: the organisation's pending invitations. */
export const OrgInvitesResponseSchema = z.object({ invites: z.array(InviteSchema) });
export type OrgInvitesResponse = z.infer<typeof OrgInvitesResponseSchema>;

/** DELETE invites/org/{id}?email= and POST invites/org/{id}/resend?email=. */
export const InviteEmailQuerySchema = z.object({ email: EmailSchema });

/**
 * The seat rule of spec section 5, shared by the dialogs and the server: members plus pending
 * invitations plus the new ones (`used`) must not exceed the seats (subscribed invitations skip it).
 */
export function exceedsSeats({ used, seats }: { used: number; seats: number }): boolean {
  return used > seats;
}

/**
 * The provider's "create an organisation" form: the new organisation's description and the address
 * of its key owner, who is invited with it as ADMIN (spec 7). Seats are typed as text: whole
 * numbers only (spec section 5), 0 when left empty (spec section 9).
 */
export const NewOrganisationFormSchema = z.object({
  name: NewOrganisationSchema.shape.name,
  productType: NewOrganisationSchema.shape.productType,
  seats: TextSchema.trim()
    .regex(/^\d{0,7}$/, 'Seats must be an integer')
    .transform((value) => (value === '' ? 0 : Number(value))),
  keyOwnerEmail: EmailSchema,
});
export type NewOrganisationFormInput = z.input<typeof NewOrganisationFormSchema>;
export type NewOrganisationForm = z.output<typeof NewOrganisationFormSchema>;

/**
 * What inviting an address into an organisation would do to its seats (decision 0046): `member`,
 * an active member there (nothing is sent, no seat); `invited`, a pending invitation there (it is
 * sent again, no new seat); `new`, a new invitation (it keeps a seat unless through a subscription).
 */
export const ADDRESS_STANDINGS = ['member', 'invited', 'new'] as const;
export type AddressStanding = (typeof ADDRESS_STANDINGS)[number];

/** POST invites/org/{id}/addresses: the addresses of a bulk list, up to 50. */
export const InvitedAddressesBodySchema = z.object({
  emails: z.array(EmailSchema).min(1, 'Add at least one email').max(BULK_INVITE_MAX, `At most ${BULK_INVITE_MAX} emails`),
});
export type InvitedAddressesBody = z.input<typeof InvitedAddressesBodySchema>;

export const InvitedAddressesResponseSchema = z.object({
  addresses: z.array(z.object({ email: z.string(), standing: z.enum(ADDRESS_STANDINGS) })),
});
export type InvitedAddressesResponse = z.infer<typeof InvitedAddressesResponseSchema>;
