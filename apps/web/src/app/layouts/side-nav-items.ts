import { type Permission, hasPermission } from '@patientsim/domain/roles/permissions';
import { externalPaths, paths } from '../../config/paths';
import type { CurrentUser } from '../../lib/current-user';
import { AREA_ACCESS, orgManagementPath } from '../guards';

export type SideNavKey = 'scenarios' | 'assignments' | 'account' | 'orgManagement' | 'access' | 'cms';

export type SideNavItem = {
  key: SideNavKey;
  label: string;
  /** A router path when `isExternal` is false, else a full path served outside this app. */
  to: string;
  isExternal: boolean;
  /** What opens the target (for a router path, what its route declares). */
  permission: Permission | 'signed-in';
  /** The '!' badge and what it means, for assistive technology. */
  badge?: { content: string; description: string };
};

/** What the '!' badge on ACCOUNT stands for: a payment issue, a pending invitation, or both. */
function accountBadge(user: CurrentUser, hasPendingInvitation: boolean): SideNavItem['badge'] | undefined {
  const reasons = [user.hasPaymentIssue ? 'payment issue' : null, hasPendingInvitation ? 'pending invitation' : null].filter(
    (reason) => reason !== null,
  );
  return reasons.length > 0 ? { content: '!', description: reasons.join(', ') } : undefined;
}

/**
 * The side nav buttons the user may see (spec section 2, 'Side nav buttons'): each shows when the
 * user's role holds the permission of its target, and when the spec's other condition holds.
 */
export function sideNavItems(user: CurrentUser, { hasPendingInvitation = false } = {}): SideNavItem[] {
  const isInOrganisation = user.activeOrg !== null;
  const badge = accountBadge(user, hasPendingInvitation);
  const candidates: { item: SideNavItem; onlyIf?: boolean }[] = [
    {
      item: { key: 'scenarios', label: 'SCENARIOS', to: paths.scenarios, isExternal: false, permission: 'cases:read' },
      // Inactive organisations have no access to cases (spec section 4), nor has a subscribed member
      // without an active subscription of their own (decision 0035).
      onlyIf: isInOrganisation && !user.isActiveOrgInactive && !user.isActiveOrgContentLocked,
    },
    {
      item: {
        key: 'assignments',
        label: 'ASSIGNMENTS',
        to: externalPaths.assignments,
        isExternal: true,
        permission: 'cases:assignments',
      },
    },
    {
      item: {
        key: 'account',
        label: 'ACCOUNT',
        to: paths.profile,
        isExternal: false,
        permission: AREA_ACCESS.account,
        ...(badge ? { badge } : {}),
      },
    },
    {
      item: {
        key: 'orgManagement',
        label: 'ORG MANAGEMENT',
        to: orgManagementPath(user),
        isExternal: false,
        permission: AREA_ACCESS.org,
      },
      onlyIf: isInOrganisation,
    },
    {
      item: { key: 'access', label: 'ACCESS', to: paths.accessOrganizations, isExternal: false, permission: AREA_ACCESS.access },
    },
    { item: { key: 'cms', label: 'CMS', to: externalPaths.cms, isExternal: true, permission: 'cms:open' } },
  ];
  return candidates
    .filter(({ item, onlyIf = true }) => onlyIf && (item.permission === 'signed-in' || hasPermission(user.role, item.permission)))
    .map(({ item }) => item);
}
