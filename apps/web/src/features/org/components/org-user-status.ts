import type { OrgUser } from '@patientsim/domain/users/org-users.schemas';
import { ROLE_LABEL } from '@patientsim/domain/roles/roles';

/**
 * The status label of a user in the organisation's table (spec section 4): Declined, Pending
 * Invite, Key Owner (organisation level only), otherwise the role; removed users carry ' Removed'.
 */
export function orgUserStatus(user: OrgUser, { isOrganisation = true }: { isOrganisation?: boolean } = {}): string {
  const base = user.declined
    ? 'Declined'
    : user.pending
      ? 'Pending Invite'
      : user.key_owner && isOrganisation
        ? 'Key Owner'
        : ROLE_LABEL[user.role];
  return user.deleted ? `${base} Removed` : base;
}

export function orgUserName(user: OrgUser): string {
  return `${user.given_name} ${user.family_name}`.trim();
}
