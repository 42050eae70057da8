import type { Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../../db/client.js';
import { type Auth, createAccountInTransaction, type NewAccountValues, type NewCredential } from '../../identity/auth.js';
import { addMembership, setActiveOrganisation } from './users.repository.js';

/**
 * The users module: users and their memberships. Other modules call these functions (the reads
 * are the repository's own, re-exported), never the repository.
 */
export {
  addGroupMembers,
  addMembership,
  findActiveMemberships,
  findAllMembershipsOf,
  findMemberEmails,
  findMemberships,
  findOrganisationMemberIds,
  findPasswordHash,
  findUserByEmail,
  findUserById,
  findUserSummary,
  isOrganisationMember,
  recordLicenseAcceptance,
  removeMembers,
  setActiveOrganisation,
  setMembershipRole,
  updateUser,
} from './users.repository.js';
export { findGroupMembershipsPage, type MembershipFilter } from './member-list.repository.js';
export { countOrganisationMembers, findUserSummaries, searchOrganisationMembers } from './user-search.repository.js';
export { buildProductClaims, loadIdentity } from './claims.js';

type Membership = { groupId: string; role: Role; subscribed?: boolean };

/** The organisations of a user's memberships (a sub-group counts as its organisation), each once. */
export function organisationIdsOf(memberships: ReadonlyArray<{ groupId: string; parentId: string | null }>): string[] {
  return [...new Set(memberships.map((membership) => membership.parentId ?? membership.groupId))];
}

/**
 * The one path that creates an account (sign-up, provisioning, the demo seed and the test
 * fixtures): the user and their password through better-auth's sign-up, and their first
 * memberships. Run it inside the caller's transaction: a refusal (EMAIL_TAKEN when the address has
 * an account) or a later failure of the caller undoes all of it.
 */
export async function createAccount(
  tx: Database,
  {
    auth,
    values,
    credential,
    memberships = [],
  }: { auth: Auth; values: NewAccountValues; credential: NewCredential; memberships?: Membership[] },
): Promise<void> {
  await createAccountInTransaction(auth, tx, { values, credential });
  for (const membership of memberships) await addMembership(tx, { ...membership, userId: values.id });
}

/**
 * The one path that joins an organisation through an invitation: the organisation and the invited
 * sub-groups with the invited role (a removed member comes back), and it becomes the active one.
 */
export async function joinOrganisation(
  db: Database,
  {
    userId,
    orgId,
    groupIds,
    role,
    subscribed,
  }: { userId: string; orgId: string; groupIds: readonly string[]; role: Role; subscribed: boolean },
): Promise<void> {
  for (const groupId of [orgId, ...groupIds]) await addMembership(db, { groupId, userId, role, subscribed });
  await setActiveOrganisation(db, userId, orgId);
}
