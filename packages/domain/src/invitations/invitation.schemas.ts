import { z } from 'zod';
import { EmailSchema } from '../auth/auth.schemas.js';
import { IdSchema, LinkTokenSchema } from '../common/api.schemas.js';

/** An invitation as the API answers it (spec section 3). */
export const InviteSchema = z.object({
  _id: z.string(),
  org_id: z.string(),
  org_name: z.string(),
  email: z.string(),
  role: z.string(),
  dismissed: z.boolean(),
  declined: z.boolean(),
  user_id: z.string().nullable(),
  throughSubscription: z.boolean(),
});
export type Invite = z.infer<typeof InviteSchema>;

export const PendingInvitesBodySchema = z.object({ email: EmailSchema });
export const PendingInvitesResponseSchema = z.object({ data: z.object({ pending: z.array(InviteSchema) }) });
export const UserInvitesResponseSchema = z.object({ data: z.object({ invites: z.array(InviteSchema) }) });

export const InviteIdParamsSchema = z.object({ inviteId: IdSchema });
export const FinishInviteBodySchema = z.object({ inviteId: IdSchema, email: EmailSchema });
/** The answer of accepting an invitation: the organisation joined. */
export const FinishedInvitationSchema = z.object({ ok: z.literal(true), orgId: z.string() });
export const DeclineInviteBodySchema = z.object({ inviteId: IdSchema });
/** POST /invitations/finish: the bearer is the invitation token; the body names the invited address. */
export const FinishInvitationBodySchema = z.object({ email: EmailSchema }).loose();
export const InvitationTokenQuerySchema = z.object({ token: LinkTokenSchema });
export const InvitationDescriptionSchema = z.object({
  email: z.string(),
  orgName: z.string().nullable(),
  hasAccount: z.boolean(),
});

/** Spec section 8: what a plain sign-up answers for an address that has a pending invitation. */
export const pendingInvitationMessage = (email: string) =>
  `You have a pending invitation to ${email}. Please follow the link in your invite email to accept it.`;
