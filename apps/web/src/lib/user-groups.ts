import { type Group, GroupListSchema } from '@patientsim/domain/groups/group.schemas';
import { apiFetch } from './api-client';

/**
 * The groups (organisations and sub-groups) of a user, fetched with the ID token: after login,
 * and again when a renewal shows the memberships changed.
 */
export function getUserGroups(params: { userId: string; idToken?: string }): Promise<Group[]> {
  return apiFetch(`/api/users/extension/users/${encodeURIComponent(params.userId)}/groups`, {
    ...(params.idToken ? { token: params.idToken } : {}),
    schema: GroupListSchema,
  });
}
