import type { RouteObject } from 'react-router';
import { AREA_ACCESS } from '../route-access';
import { page } from './page';

/** The provider's access area (spec section 2): SUPER_ADMIN only. */
export const accessRoutes: RouteObject[] = [
  page('access', AREA_ACCESS.access, () => import('../../features/access/components/access-layout'), 'AccessLayout', {
    children: [
      page('organizations', AREA_ACCESS.access, () => import('../../features/access/routes/organizations'), 'OrganizationsRoute'),
      // Composes the organisation profile, members and groups features (decision 0009).
      page(
        'organizations/:orgId',
        AREA_ACCESS.access,
        () => import('../routes/organization-details'),
        'OrganizationDetailsRoute',
        {
          id: 'organization-details',
        },
      ),
      page('users', AREA_ACCESS.access, () => import('../../features/access/routes/access-users'), 'AccessUsersRoute'),
      page('cases', AREA_ACCESS.access, () => import('../../features/access/routes/access-cases'), 'AccessCasesRoute'),
      page('skeleton', AREA_ACCESS.access, () => import('../../features/view-as/routes/view-as'), 'ViewAsRoute'),
      page('templates', AREA_ACCESS.access, () => import('../../features/templates/routes/templates'), 'TemplatesRoute'),
      page(
        'notifications',
        AREA_ACCESS.access,
        () => import('../../features/notifications/routes/notifications-composer'),
        'NotificationsComposerRoute',
      ),
      page('audit', 'audit:read-all', () => import('../../features/audit/routes/audit'), 'AccessAuditRoute'),
      page(
        'applications',
        'applications:manage',
        () => import('../../features/applications/routes/applications'),
        'ApplicationsRoute',
      ),
    ],
  }),
];
