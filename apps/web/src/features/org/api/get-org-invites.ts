/** The query key of an organisation's pending invitations (spec 7, GET invites/org/{id}): what invitation writes refresh. */
export const orgInvitesQueryKey = (orgId: string) => ['invitations', 'org', orgId] as const;
