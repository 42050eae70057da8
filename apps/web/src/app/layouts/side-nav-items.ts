import { externalPaths, paths } from '../../config/paths';
import type { CurrentUser } from '../../lib/current-user';
import { orgManagementPath } from '../guards';

export type SideNavKey = 'scenarios' | 'assignments' | 'account' | 'orgManagement' | 'access' | 'cms';

export type SideNavItem = {
  key: SideNavKey;
  label: string;
  /** A router path when `isExternal` is false, else a full path served outside this app. */
  to: string;
  isExternal: boolean;
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

/** The side nav buttons the user may see (spec section 2, 'Side nav buttons'). */
export function sideNavItems(user: CurrentUser, { hasPendingInvitation = false } = {}): SideNavItem[] {
  const items: SideNavItem[] = [];
  const isInOrganisation = user.activeOrg !== null;

  if (isInOrganisation && !user.isActiveOrgInactive) {
    items.push({ key: 'scenarios', label: 'SCENARIOS', to: externalPaths.scenarios, isExternal: true });
  }
  if (!user.isStudent) {
    items.push({ key: 'assignments', label: 'ASSIGNMENTS', to: externalPaths.assignments, isExternal: true });
  }
  const badge = accountBadge(user, hasPendingInvitation);
  items.push({ key: 'account', label: 'ACCOUNT', to: paths.profile, isExternal: false, ...(badge ? { badge } : {}) });
  if (isInOrganisation && !user.isStudent) {
    items.push({ key: 'orgManagement', label: 'ORG MANAGEMENT', to: orgManagementPath(user), isExternal: false });
  }
  if (user.isSuperAdmin) {
    items.push({ key: 'access', label: 'ACCESS', to: paths.accessOrganizations, isExternal: false });
    items.push({ key: 'cms', label: 'CMS', to: externalPaths.cms, isExternal: true });
  }
  return items;
}
