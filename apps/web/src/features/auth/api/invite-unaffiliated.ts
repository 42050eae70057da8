import type { InviteUnaffiliatedBody } from '@patientsim/domain/auth/auth.schemas';
import { apiFetch } from '../../../lib/api-client';
import { useRequest } from '../../../lib/use-request';

/**
 * Plain sign-up, e-mail first (decision 9): the server e-mails a link to the invite variant. Its
 * answer (`{ ok: true }`) is not read, so no schema (and no zod) comes with the page.
 */
export function inviteUnaffiliated(body: InviteUnaffiliatedBody): Promise<unknown> {
  return apiFetch('/api/users/invitations/invite-unaffiliated', { method: 'POST', body });
}

/**
 * The plain sign-up request and its state. A plain request rather than a query mutation: the
 * sign-up page, like sign-in, loads no query cache.
 */
export function useInviteUnaffiliated() {
  return useRequest(inviteUnaffiliated);
}
