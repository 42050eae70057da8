import { type RouteObject, createBrowserRouter, redirect } from 'react-router';
import { APP_BASENAME, paths } from '../config/paths';
import {
  ACCESS_ROLES,
  ALL_ROLES,
  ORG_ROLES,
  type RouteAccess,
  guard,
  orgIndexLoader,
  orgProfileLoader,
  verifyEmailLoader,
} from './guards';
import { AppShell } from './layouts/app-shell';
import { AuthLayout } from './layouts/auth-layout';
import { LoadingScreen } from './layouts/loading-screen';
import { RootLayout } from './layouts/root-layout';
import { SignedInLayout } from './layouts/signed-in-layout';
import { NotFoundRoute } from './not-found';
import { PageErrorBoundary, RootErrorBoundary } from './route-error-boundary';

/** What every route declares: who may open it (read by the guard and by tests). */
export type RouteHandle = { access: RouteAccess };

function access(value: RouteAccess): { loader: ReturnType<typeof guard>; handle: RouteHandle } {
  return { loader: guard(value), handle: { access: value } };
}

const redirectTo = (path: string) => () => redirect(path);

/**
 * The route table (spec section 2), under the base /auth. Each page declares its allowed roles;
 * its loader enforces them: unauthenticated → login, role not allowed → profile.
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
        children: [
          {
            ErrorBoundary: PageErrorBoundary,
            children: [
              {
                index: true,
                ...access('public'),
                lazy: async () => ({ Component: (await import('../features/auth/routes/login')).LoginRoute }),
              },
              {
                id: 'login',
                path: 'login',
                ...access('public'),
                lazy: async () => ({ Component: (await import('../features/auth/routes/login')).LoginRoute }),
              },
              {
                path: 'signup',
                ...access('public'),
                lazy: async () => ({ Component: (await import('../features/auth/routes/signup')).SignupRoute }),
              },
              {
                path: 'choose-password',
                ...access('public'),
                lazy: async () => ({
                  Component: (await import('../features/auth/routes/choose-password')).ChoosePasswordRoute,
                }),
              },
              {
                path: 'reset-password',
                ...access('public'),
                lazy: async () => ({
                  Component: (await import('../features/auth/routes/reset-password')).ResetPasswordRoute,
                }),
              },
              {
                path: 'callback',
                ...access('public'),
                lazy: async () => ({ Component: (await import('../features/auth/routes/callback')).CallbackRoute }),
              },
              {
                path: 'license',
                ...access('public'),
                lazy: async () => ({ Component: (await import('../features/auth/routes/license')).LicenseRoute }),
              },
              {
                // Public: the link decides whether to sign up, sign in first, or accept (decision 8).
                path: 'accept-invite',
                ...access('public'),
                lazy: async () => ({
                  Component: (await import('../features/invitations/routes/accept-invite')).AcceptInviteRoute,
                }),
              },
              {
                path: 'emailVerified',
                ...access('public'),
                lazy: async () => ({
                  Component: (await import('../features/auth/routes/email-verified')).EmailVerifiedRoute,
                }),
              },
            ],
          },
        ],
      },
      {
        Component: SignedInLayout,
        ...access('unverified'),
        children: [
          {
            ErrorBoundary: PageErrorBoundary,
            children: [
              {
                path: 'org-selection',
                ...access('unverified'),
                lazy: async () => ({
                  Component: (await import('../features/auth/routes/org-selection')).OrgSelectionRoute,
                }),
              },
              {
                id: 'verifyEmail',
                path: 'verify',
                loader: verifyEmailLoader,
                handle: { access: 'unverified' } satisfies RouteHandle,
                lazy: async () => ({ Component: (await import('./routes/verify-email')).VerifyEmailPage }),
              },
            ],
          },
        ],
      },
      {
        Component: AppShell,
        ...access('signed-in'),
        children: [
          {
            ErrorBoundary: PageErrorBoundary,
            children: [
              {
                path: 'account',
                ...access(ALL_ROLES),
                lazy: async () => ({
                  Component: (await import('../features/account/components/account-layout')).AccountLayout,
                }),
                children: [
                  { index: true, loader: redirectTo(paths.profile) },
                  {
                    id: 'profile',
                    path: 'profile',
                    ...access(ALL_ROLES),
                    lazy: async () => ({ Component: (await import('./routes/profile')).ProfileRoute }),
                  },
                  {
                    path: 'change-password',
                    ...access(ALL_ROLES),
                    lazy: async () => ({
                      Component: (await import('../features/account/routes/change-password')).ChangePasswordRoute,
                    }),
                  },
                ],
              },
              {
                path: 'org',
                ...access(ORG_ROLES),
                lazy: async () => ({ Component: (await import('../features/org/components/org-layout')).OrgLayout }),
                children: [
                  { index: true, loader: orgIndexLoader, handle: { access: ORG_ROLES } satisfies RouteHandle },
                  {
                    path: 'invite',
                    ...access(ORG_ROLES),
                    lazy: async () => ({ Component: (await import('../features/org/routes/org-users')).OrgUsersRoute }),
                  },
                  {
                    path: 'invite-subscribed',
                    ...access(ORG_ROLES),
                    lazy: async () => ({
                      Component: (await import('../features/org/routes/org-users')).SubscribedUsersRoute,
                    }),
                  },
                  {
                    path: 'archived-users',
                    ...access(ORG_ROLES),
                    lazy: async () => ({
                      Component: (await import('../features/org/routes/org-users')).ArchivedUsersRoute,
                    }),
                  },
                  {
                    path: 'profile',
                    loader: orgProfileLoader,
                    handle: { access: ORG_ROLES } satisfies RouteHandle,
                    lazy: async () => ({ Component: (await import('../features/org/routes/org-profile')).OrgProfileRoute }),
                  },
                  {
                    path: 'groups',
                    ...access(ORG_ROLES),
                    lazy: async () => ({ Component: (await import('../features/groups/routes/groups')).GroupsRoute }),
                  },
                ],
              },
              {
                path: 'groups',
                ...access(ORG_ROLES),
                children: [
                  {
                    index: true,
                    ...access(ORG_ROLES),
                    lazy: async () => ({ Component: (await import('../features/groups/routes/groups')).GroupsRoute }),
                  },
                  {
                    id: 'group-details',
                    path: ':orgId',
                    ...access(ORG_ROLES),
                    lazy: async () => ({
                      Component: (await import('../features/groups/routes/group-details')).GroupDetailsRoute,
                    }),
                  },
                ],
              },
              {
                path: 'access',
                ...access(ACCESS_ROLES),
                lazy: async () => ({
                  Component: (await import('../features/access/components/access-layout')).AccessLayout,
                }),
                children: [
                  {
                    path: 'organizations',
                    ...access(ACCESS_ROLES),
                    lazy: async () => ({
                      Component: (await import('../features/access/routes/access-pages')).OrganizationsRoute,
                    }),
                  },
                  {
                    id: 'organization-details',
                    path: 'organizations/:orgId',
                    ...access(ACCESS_ROLES),
                    lazy: async () => ({
                      Component: (await import('../features/access/routes/access-pages')).OrganizationDetailsRoute,
                    }),
                  },
                  {
                    path: 'users',
                    ...access(ACCESS_ROLES),
                    lazy: async () => ({
                      Component: (await import('../features/access/routes/access-pages')).AccessUsersRoute,
                    }),
                  },
                  {
                    path: 'cases',
                    ...access(ACCESS_ROLES),
                    lazy: async () => ({
                      Component: (await import('../features/access/routes/access-pages')).AccessCasesRoute,
                    }),
                  },
                  {
                    path: 'skeleton',
                    ...access(ACCESS_ROLES),
                    lazy: async () => ({
                      Component: (await import('../features/access/routes/access-pages')).SkeletonKeyRoute,
                    }),
                  },
                  {
                    path: 'templates',
                    ...access(ACCESS_ROLES),
                    lazy: async () => ({
                      Component: (await import('../features/access/routes/access-pages')).TemplatesRoute,
                    }),
                  },
                  {
                    path: 'notifications',
                    ...access(ACCESS_ROLES),
                    lazy: async () => ({
                      Component: (await import('../features/access/routes/access-pages')).AccessNotificationsRoute,
                    }),
                  },
                ],
              },
              {
                path: 'payment/portal',
                ...access(ALL_ROLES),
                lazy: async () => ({
                  Component: (await import('../features/payment/routes/payment-portal')).PaymentPortalRoute,
                }),
              },
              { path: 'manage-users', loader: redirectTo(paths.org), handle: { access: ORG_ROLES } satisfies RouteHandle },
              {
                path: 'manage-users/invite',
                loader: redirectTo(paths.orgInvite),
                handle: { access: ORG_ROLES } satisfies RouteHandle,
              },
              { path: '*', ...access('signed-in'), Component: NotFoundRoute },
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
