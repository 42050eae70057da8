import { type RouteObject, createBrowserRouter } from 'react-router';
import { APP_BASENAME } from '../config/paths';
import { AppShell } from './layouts/app-shell';
import { AuthLayout } from './layouts/auth-layout';
import { LoadingScreen } from './layouts/loading-screen';
import { RootLayout } from './layouts/root-layout';
import { SignedInLayout } from './layouts/signed-in-layout';
import { NotFoundRoute } from './not-found';
import { PageErrorBoundary, RootErrorBoundary } from './route-error-boundary';
import { accessRoutes } from './route-table/access-routes';
import { accountRoutes } from './route-table/account-routes';
import { authRoutes, verificationRoutes } from './route-table/auth-routes';
import { groupsRoutes } from './route-table/groups-routes';
import { orgRoutes } from './route-table/org-routes';
import { guarded } from './route-table/page';

/**
 * The route table (spec section 2), under the base /auth, composed from one file per area. Each
 * page declares who may open it (a permission of the domain table, or public / unverified /
 * signed-in); its loader enforces that: unauthenticated → login, permission lacking → profile.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RootErrorBoundary,
    HydrateFallback: LoadingScreen,
    children: [
      {
        Component: AuthLayout,
        children: [{ ErrorBoundary: PageErrorBoundary, children: authRoutes }],
      },
      {
        Component: SignedInLayout,
        ...guarded('unverified'),
        children: [{ ErrorBoundary: PageErrorBoundary, children: verificationRoutes }],
      },
      {
        Component: AppShell,
        ...guarded('signed-in'),
        children: [
          {
            ErrorBoundary: PageErrorBoundary,
            children: [
              ...accountRoutes,
              ...orgRoutes,
              ...groupsRoutes,
              ...accessRoutes,
              { path: '*', ...guarded('signed-in'), Component: NotFoundRoute },
            ],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes, { basename: APP_BASENAME });
}
