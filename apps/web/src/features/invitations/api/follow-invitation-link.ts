import { InvitationDescriptionSchema } from '@patientsim/domain/invitations/invitation.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { RUNS_ONCE } from '../../../lib/query-client';
import type { z } from 'zod';
import { paths } from '../../../config/paths';
import { changeActiveOrg } from '../../../lib/active-org';
import { apiFetch } from '../../../lib/api-client';
import { type SessionSnapshot, getSessionSnapshot, isLoginResultUsable } from '../../../lib/session-store';
import { FinishedInvitationSchema } from '@patientsim/domain/invitations/invitation.schemas';

export type InvitationDescription = z.infer<typeof InvitationDescriptionSchema>;

/** What an invitation token stands for: the invited address, the organisation, whether it has an account. */
export function describeInvitation(token: string): Promise<InvitationDescription> {
  return apiFetch('/api/users/invitations/describe', { query: { token }, schema: InvitationDescriptionSchema });
}

/** Accepts the invitation for its address; the bearer is the invitation token itself. */
export function finishInvitation({ token, email }: { token: string; email: string }) {
  return apiFetch('/api/users/invitations/finish', {
    method: 'POST',
    body: { email },
    token,
    schema: FinishedInvitationSchema,
  });
}

/** Where following an invitation link leads. */
export type InvitationLinkOutcome =
  /** No account yet: the invite variant of sign-up. */
  | { kind: 'signup'; to: string }
  /** Sign in as the invited address first, coming back here; log out first when signed in as someone else. */
  | { kind: 'login'; to: string; mustLogOut: boolean }
  /** Joined: the organisation is now the active one. */
  | { kind: 'accepted'; orgId: string };

function sameAddress(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * /accept-invite?token (spec sections 2 and 5, decision 8): an address without an account signs
 * up through the link; anyone but the invited user signs in as them first; the invited user joins
 * the organisation, which becomes the active one.
 */
export async function followInvitationLink({
  token,
  session,
  nowMs,
}: {
  token: string;
  session: SessionSnapshot;
  nowMs: number;
}): Promise<InvitationLinkOutcome> {
  const invitation = await describeInvitation(token);
  if (!invitation.hasAccount) {
    const query = new URLSearchParams({ email: invitation.email, token });
    return { kind: 'signup', to: `${paths.signup}?${query.toString()}` };
  }

  const stored = session.result;
  const isSignedInAsInvitee =
    stored !== null && isLoginResultUsable(stored, nowMs) && sameAddress(stored.idTokenPayload.email, invitation.email);
  if (!isSignedInAsInvitee) {
    const back = `${paths.acceptInvite}?${new URLSearchParams({ token }).toString()}`;
    return {
      kind: 'login',
      to: `${paths.login}?${new URLSearchParams({ redirectUrl: back }).toString()}`,
      mustLogOut: stored !== null && !sameAddress(stored.idTokenPayload.email, invitation.email),
    };
  }

  const { orgId } = await finishInvitation({ token, email: invitation.email });
  await changeActiveOrg({ orgId });
  return { kind: 'accepted', orgId };
}

export const followInvitationLinkQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['invitations', 'link', token],
    queryFn: () => followInvitationLink({ token, session: getSessionSnapshot(), nowMs: Date.now() }),
    // Runs once per visit of the link: never cached, retried or refetched.
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    meta: RUNS_ONCE,
  });

export function useFollowInvitationLink(token: string) {
  return useQuery(followInvitationLinkQueryOptions(token));
}
