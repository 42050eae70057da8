import { type RouteObject, createBrowserRouter } from 'react-router';
import { AuthLayout } from './layouts/auth-layout';
import { LoadingScreen } from './layouts/loading-screen';
import { RootLayout } from './layouts/root-layout';
import { PageErrorBoundary, RootErrorBoundary } from './route-error-boundary';
import { accessRoutes } from './route-table/access-routes';
import { accountRoutes } from './route-table/account-routes';
import { authRoutes, verificationRoutes } from './route-table/auth-routes';
import { authoringRoutes } from './route-table/authoring-routes';
import { groupsRoutes } from './route-table/groups-routes';
import { orgRoutes } from './route-table/org-routes';
import { guarded, lazyComponent } from './route-table/page';

/**
 * The route table (spec section 2), composed from one file per area: the /auth area, and the
 * scenario library at /authoring/cases (decision 1) inside the same signed-in shell, so that the
 * shell (side nav, notifications, the popup carousel) stays mounted between them. Each
 * page declares who may open it (a permission of the domain table, or public / unverified /
 * signed-in); its loader enforces that: unauthenticated → login, permission lacking → profile.
 *
 * The sign-in page, its layout, the router and the error pages (which must show even when a chunk
 * fails to load) come with the app's entry; the signed-in layouts, every other page and the guards
 * are loaded when first needed (`lazy`), while the route's loader runs its guard and starts the
 * page's API reads (`route-reads.ts`).
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
        children: [{ path: 'auth', ErrorBoundary: PageErrorBoundary, children: authRoutes }],
      },
      {
        lazy: lazyComponent(() => import('./layouts/signed-in-layout'), 'SignedInLayout'),
        ...guarded('unverified'),
        children: [{ path: 'auth', ErrorBoundary: PageErrorBoundary, children: verificationRoutes }],
      },
      {
        lazy: lazyComponent(() => import('./layouts/app-shell'), 'AppShell'),
        ...guarded('signed-in', 'startShellReads'),
        children: [
          {
            path: 'auth',
            ErrorBoundary: PageErrorBoundary,
            children: [
              ...accountRoutes,
              ...orgRoutes,
              ...groupsRoutes,
              ...accessRoutes,
              { path: '*', ...guarded('signed-in'), lazy: lazyComponent(() => import('./not-found'), 'NotFoundRoute') },
            ],
          },
          { ErrorBoundary: PageErrorBoundary, children: authoringRoutes },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
