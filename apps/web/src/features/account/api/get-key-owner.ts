import { KeyOwnerAnswerSchema, type KeyOwnerSchema } from '@patientsim/domain/account/account.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';

export type KeyOwner = z.infer<typeof KeyOwnerSchema>;

/** The key owner of an organisation, or null when it has none. */
export function getKeyOwner(orgId: string): Promise<KeyOwner | null> {
  return apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}/key-owner`, {
    schema: KeyOwnerAnswerSchema,
  });
}

export const keyOwnerQueryOptions = (orgId: string) =>
  queryOptions({ queryKey: ['groups', orgId, 'key-owner'], queryFn: () => getKeyOwner(orgId) });

export function useKeyOwner(orgId: string) {
  return useQuery(keyOwnerQueryOptions(orgId));
}
