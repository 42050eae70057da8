import type { RouteObject } from 'react-router';
import { paths } from '../../config/paths';
import { AREA_ACCESS } from '../route-access';
import { type RouteHandle, guardLoader, page, redirectRoute } from './page';

const orgUsersModule = () => import('../../features/org/routes/org-users');

/** Org management (spec section 2): SUPER_ADMIN, ADMIN, USER. */
export const orgRoutes: RouteObject[] = [
  page('org', AREA_ACCESS.org, () => import('../../features/org/components/org-layout'), 'OrgLayout', {
    children: [
      // /org itself opens the user's org management entry.
      { index: true, loader: guardLoader('orgIndexLoader'), handle: { access: AREA_ACCESS.org } satisfies RouteHandle },
      page('invite', AREA_ACCESS.org, orgUsersModule, 'OrgUsersRoute'),
      page('invite-subscribed', AREA_ACCESS.org, orgUsersModule, 'SubscribedUsersRoute'),
      page('archived-users', AREA_ACCESS.org, orgUsersModule, 'ArchivedUsersRoute'),
      // The key owner's; anyone else is sent to the invite-users route.
      page('profile', AREA_ACCESS.org, () => import('../../features/org/routes/org-profile'), 'OrgProfileRoute', {
        loader: guardLoader('orgProfileLoader'),
      }),
      page('groups', AREA_ACCESS.org, () => import('../../features/groups/routes/groups'), 'GroupsRoute'),
      page('audit', 'org:audit:read', () => import('../../features/audit/routes/audit'), 'OrgAuditRoute'),
      page('security', 'org:two-factor:require', () => import('../../features/org/routes/org-security'), 'OrgSecurityRoute'),
    ],
  }),
  redirectRoute('manage-users', paths.org, AREA_ACCESS.org),
  redirectRoute('manage-users/invite', paths.orgInvite, AREA_ACCESS.org),
];
