import type { RouteObject } from 'react-router';
import { AREA_ACCESS } from '../route-access';
import { guarded, indexPage, page } from './page';

/** The organisation's groups (spec section 2): the roles of org management. */
export const groupsRoutes: RouteObject[] = [
  {
    path: 'groups',
    ...guarded(AREA_ACCESS.org),
    children: [
      indexPage(AREA_ACCESS.org, () => import('../../features/groups/routes/groups'), 'GroupsRoute'),
      page(':orgId', AREA_ACCESS.org, () => import('../../features/groups/routes/group-details'), 'GroupDetailsRoute', {
        id: 'group-details',
      }),
    ],
  },
];
