import { type Group, type GroupMetadata, parseGroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getUserGroups } from '../../../lib/user-groups';

export type InviteTarget = {
  /** The organisation's seats and member count, fresh from the server. */
  metadata: GroupMetadata | null;
  /** Its sub-groups, which invitations may add the invitees to. */
  subgroups: Group[];
};

/** The inviter's organisation (seats, members) and its sub-groups, from GET /extension/users/{userId}/groups. */
export async function getInviteTarget({ userId, orgId }: { userId: string; orgId: string }): Promise<InviteTarget> {
  const groups = await getUserGroups({ userId });
  const org = groups.find((group) => group._id === orgId);
  return {
    metadata: org ? parseGroupMetadata(org) : null,
    subgroups: groups.filter((group) => parseGroupMetadata(group)?.parent === orgId),
  };
}

export const inviteTargetQueryOptions = (params: { userId: string; orgId: string }) =>
  queryOptions({
    queryKey: ['groups', 'user', params.userId, 'invite-target', params.orgId],
    queryFn: () => getInviteTarget(params),
  });

export function useInviteTarget(params: { userId: string; orgId: string } | null) {
  return useQuery({ ...inviteTargetQueryOptions(params ?? { userId: '', orgId: '' }), enabled: params !== null });
}
