import {
  type InviteResult,
  InviteResultListSchema,
  type NewOrganisationForm,
} from '@patientsim/domain/invitations/invite-users.schemas';
import { KEY_OWNER_ROLE } from '@patientsim/domain/roles/roles';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { organizationsKey } from './get-organizations';

/**
 * Creates an organisation with its key owner invited as ADMIN, in one request: POST
 * /invitations/invite with a new organisation's description as `org` (spec 7).
 */
export async function createOrganization({
  name,
  productType,
  seats,
  keyOwnerEmail,
}: NewOrganisationForm): Promise<InviteResult> {
  const [result] = await apiFetch('/api/users/invitations/invite', {
    method: 'POST',
    body: {
      users: [{ email: keyOwnerEmail, role: KEY_OWNER_ROLE }],
      org: { name, productType, seats },
      throughSubscription: false,
    },
    schema: InviteResultListSchema,
  });
  if (!result?.createdOrg) throw new Error('The organization was not created.');
  return result;
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['groups', 'create-organization'],
    mutationFn: createOrganization,
    // A new row in the organisations list.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationsKey }),
  });
}
