import { KeyOwnerAnswerSchema, type KeyOwnerSchema } from '@patientsim/domain/account/account.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';

export type GroupAdmin = z.infer<typeof KeyOwnerSchema>;

/** The group admin of a group, or null when it has none. */
export function getGroupAdmin(groupId: string): Promise<GroupAdmin | null> {
  return apiFetch(`/api/users/extension/groups/${encodeURIComponent(groupId)}/key-owner`, {
    schema: KeyOwnerAnswerSchema,
  });
}

export const groupAdminQueryOptions = (groupId: string) =>
  queryOptions({ queryKey: ['groups', groupId, 'key-owner'], queryFn: () => getGroupAdmin(groupId) });

export function useGroupAdmin(groupId: string) {
  return useQuery(groupAdminQueryOptions(groupId));
}
