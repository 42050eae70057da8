import { PERMISSIONS, hasPermission } from '@patientsim/domain/roles/permissions';
import { ROLES, type Role } from '@patientsim/domain/roles/roles';
import { screen, waitFor } from '@testing-library/react';
import { type RouteObject, matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { writeGroups, writeLoginResult } from '../lib/session-store';
import { buildGroup, buildGroupsDataEntry, buildLoginResult, buildPayload } from '../testing/factories';
import { errorResponse, stubApi } from '../testing/fake-api';
import { jsonResponse, renderRoutes } from '../testing/render';
import type { RouteHandle } from './route-table/page';
import { routes } from './router';

function signIn(role: Role, options: { ownerId?: string; emailVerified?: boolean } = {}) {
  // The groups pages and the org profile load the organisation and the user's groups.
  stubApi([
    { method: 'GET', path: /^\/api\/users\/extension\/users\/[^/]+\/groups$/, respond: () => jsonResponse([]) },
    { method: 'GET', path: /^\/api\/users\/invites\/org\/[^/]+$/, respond: () => jsonResponse({ invites: [] }) },
    // The users page of an admin lists the organisation's members.
    {
      method: 'GET',
      path: /^\/api\/users\/extension\/groups\/[^/]+\/members$/,
      respond: () => jsonResponse({ total: 0, page: 0, pageSize: 50, items: [] }),
    },
    // The org profile of an admin shows the second factor requirement.
    {
      method: 'GET',
      path: /^\/api\/users\/extension\/groups\/[^/]+\/two-factor-requirement$/,
      respond: () => jsonResponse({ roles: [] }),
    },
    // The Cases tool lists the environments it knows.
    { method: 'GET', path: '/api/cases/tool/environments', respond: () => jsonResponse({ environments: [] }) },
    {
      method: 'GET',
      path: /^\/api\/users\/extension\/groups\/[^/]+(\/nested)?$/,
      respond: (request) =>
        jsonResponse(request.path.endsWith('/nested') ? [] : buildGroup({}, { ownerId: options.ownerId ?? 'someone-else' })),
    },
  ]);
  const result = buildLoginResult({
    role,
    sub: 'user-1',
    email_verified: options.emailVerified ?? true,
    groupsData: [buildGroupsDataEntry({ role })],
  });
  writeLoginResult(result);
  writeGroups([buildGroup({}, { ownerId: options.ownerId ?? 'someone-else' })], []);
  return result;
}

function pathOf(router: ReturnType<typeof renderRoutes>['router']) {
  const { pathname, search } = router.state.location;
  return `${pathname}${search}`;
}

describe('route guard', () => {
  it('sends an unauthenticated user to login, carrying the page as redirectUrl', async () => {
    const { router } = renderRoutes(routes, '/auth/account/profile');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(pathOf(router)).toBe('/auth/login?redirectUrl=%2Fauth%2Faccount%2Fprofile');
  });

  it('sends a student opening /access to profile', async () => {
    signIn('STUDENT');
    const { router } = renderRoutes(routes, '/auth/access');
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(pathOf(router)).toBe('/auth/account/profile');
    // The profile renders its cards one per task after its title.
    expect(await screen.findByText('You are currently a member of 1 organization(s)')).toBeInTheDocument();
  });

  it('lets a super admin open the access area and its menu', async () => {
    signIn('SUPER_ADMIN');
    renderRoutes(routes, '/auth/access');
    expect(await screen.findByRole('heading', { name: 'Access' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skeleton Key' })).toHaveAttribute('href', '/auth/access/skeleton');
  });

  it('replaces the access menu with Go Back inside a tool', async () => {
    signIn('SUPER_ADMIN');
    renderRoutes(routes, '/auth/access/cases');
    expect(await screen.findByRole('heading', { name: 'Cases' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Back' })).toHaveAttribute('href', '/auth/access');
  });

  it('opens org management at groups for an instructor', async () => {
    signIn('USER');
    const { router } = renderRoutes(routes, '/auth/org');
    await waitFor(() => expect(pathOf(router)).toBe('/auth/org/groups'));
    expect(await screen.findByRole('heading', { name: 'Groups' })).toBeInTheDocument();
  });

  it('sends a non key owner from the org profile to the invite-users route', async () => {
    signIn('ADMIN');
    const { router } = renderRoutes(routes, '/auth/org/profile');
    await waitFor(() => expect(pathOf(router)).toBe('/auth/org/invite'));
  });

  it('shows the org profile to the key owner', async () => {
    signIn('ADMIN', { ownerId: 'user-1' });
    renderRoutes(routes, '/auth/org/profile');
    expect(await screen.findByRole('heading', { name: 'Org. Profile' })).toBeInTheDocument();
  });

  it('redirects the manage-users paths to org', async () => {
    signIn('ADMIN');
    const { router } = renderRoutes(routes, '/auth/manage-users/invite');
    await waitFor(() => expect(pathOf(router)).toBe('/auth/org/invite'));
  });

  it('shows the verify screen to an unverified user', async () => {
    signIn('STUDENT', { emailVerified: false });
    renderRoutes(routes, '/auth/verify');
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend Verification Email' })).toBeInTheDocument();
  });

  it('asks nothing about invitations on the verify screen: the server tells of them only to a verified address', async () => {
    signIn('STUDENT', { emailVerified: false });
    const api = stubApi();
    renderRoutes(routes, '/auth/verify');
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend Verification Email' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/invites/pending')).toHaveLength(0);
  });

  it('renews an expired token through the session cookie before opening the page', async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    writeLoginResult(buildLoginResult({ role: 'ADMIN', iat: nowSeconds - 7200, exp: nowSeconds - 60 }));
    const api = stubApi([
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: () => jsonResponse({ idToken: 'renewed.token.value', idTokenPayload: buildPayload() }),
      },
    ]);

    const { router } = renderRoutes(routes, '/auth/account/profile');

    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(pathOf(router)).toBe('/auth/account/profile');
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(1);
    // Every later call carries the renewed token.
    await waitFor(() => expect(api.callsTo('GET', '/api/users/notifications').length).toBeGreaterThan(0));
    expect(api.callsTo('GET', '/api/users/notifications')[0]?.headers.get('Authorization')).toBe('Bearer renewed.token.value');
  });

  it('sends a user whose renewal fails to login, ending the server session', async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    writeLoginResult(buildLoginResult({ role: 'ADMIN', iat: nowSeconds - 7200, exp: nowSeconds - 60 }));
    const api = stubApi([
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: () => errorResponse(401, 'UNAUTHENTICATED', 'You must be signed in.'),
      },
    ]);

    renderRoutes(routes, '/auth/account/profile');

    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/auth/sign-out')).toHaveLength(1);
  });

  it('logs out a student whose stored token is older than 1200 seconds, without renewing it', async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    writeLoginResult(buildLoginResult({ role: 'STUDENT', iat: nowSeconds - 1201, exp: nowSeconds + 600 }));
    const api = stubApi();

    const { router } = renderRoutes(routes, '/auth/account/profile');

    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(pathOf(router)).toBe('/auth/login?redirectUrl=%2Fauth%2Faccount%2Fprofile');
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(0);
    expect(api.callsTo('POST', '/api/users/auth/sign-out')).toHaveLength(1);
  });

  it('does not renew an expired View-As-User session: it logs out', async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    writeLoginResult(buildLoginResult({ iat: nowSeconds - 3600, exp: nowSeconds - 1 }, { fromSkeletonKey: true }));
    const api = stubApi();

    renderRoutes(routes, '/auth/account/profile');

    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(0);
  });
});

describe('scenario library (/authoring/cases)', () => {
  it('sends a visitor to login with a timestamp and a redirect back (the authoring guard)', async () => {
    const { router } = renderRoutes(routes, '/authoring/cases');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(pathOf(router)).toMatch(/^\/auth\/login\?t=\d+&redirectUrl=%2Fauthoring%2Fcases$/);
  });

  it('sends an unverified user to the verify screen', async () => {
    signIn('USER', { emailVerified: false });
    const { router } = renderRoutes(routes, '/authoring/cases');
    await waitFor(() => expect(pathOf(router)).toBe('/auth/verify'));
  });

  it('opens in the shell, and tells a user without an organisation what to do next (decision 18)', async () => {
    stubApi([
      { method: 'GET', path: '/api/users/support-contact', respond: () => jsonResponse({ email: 'help@provider.example' }) },
      {
        method: 'POST',
        path: '/api/graphql',
        respond: () =>
          jsonResponse({ data: { caseConfigurations: { items: [], nextCursor: null, totalCount: 0, totalCountCapped: false } } }),
      },
    ]);
    writeLoginResult(buildLoginResult({ role: 'STUDENT', groupsData: [], org: null, productType: 'NURSING' }));
    renderRoutes(routes, '/authoring/cases');
    expect(await screen.findByRole('heading', { level: 1, name: 'Scenarios' })).toBeInTheDocument();
    const next = screen.getByRole('region', { name: 'What to do next' });
    expect(next).toHaveTextContent('You are not a member of any organization yet.');
    expect(await screen.findByRole('link', { name: 'help@provider.example' })).toHaveAttribute(
      'href',
      'mailto:help@provider.example',
    );
    expect(await screen.findByText('You have no pending invitations.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Public Nursing scenarios' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });
});

describe('routes', () => {
  it('redirects /manage-users to org, which opens the admin at the invite-users route', async () => {
    signIn('ADMIN');
    const { router } = renderRoutes(routes, '/auth/manage-users');
    await waitFor(() => expect(pathOf(router)).toBe('/auth/org/invite'));
  });

  it('opens /accept-invite without a session (the link decides where to go)', async () => {
    renderRoutes(routes, '/auth/accept-invite');
    expect(await screen.findByText('Missing invite token')).toBeInTheDocument();
  });

  it('shows the billing portal page and the account menu', async () => {
    signIn('STUDENT');
    stubApi();
    renderRoutes(routes, '/auth/payment/portal');
    expect(await screen.findByRole('heading', { name: 'Billing portal' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to account' })).toHaveAttribute('href', '/auth/account/profile');
  });
});

function everyRoute(list: RouteObject[]): RouteObject[] {
  return list.flatMap((route) => [route, ...everyRoute(route.children ?? [])]);
}

const accessOf = (route: RouteObject) => (route.handle as RouteHandle | undefined)?.access;
const ACCESS_KEYWORDS: readonly string[] = ['public', 'unverified', 'signed-in'];

/** The roles every guard along the routes matching `path` lets through (keywords let every role through). */
function rolesOpening(path: string): Role[] {
  const matches = matchRoutes(routes, path) ?? [];
  expect(matches.at(-1)?.route.path, `${path} is a page of the route table`).not.toBe('*');
  const accesses = matches.map((match) => accessOf(match.route)).filter((access) => access !== undefined);
  return ROLES.filter((role) =>
    accesses.every(
      (access) => access === 'public' || access === 'unverified' || access === 'signed-in' || hasPermission(role, access),
    ),
  );
}

describe('route table', () => {
  // The /auth prefixes of the layouts are no pages: their layouts' guards apply.
  const pages = everyRoute(routes).filter(
    (route) => route.id !== 'root' && route.path !== 'auth' && (route.index || route.path !== undefined),
  );

  it('declares on every page who may open it: a keyword or a permission of the domain table', () => {
    expect(pages.length).toBeGreaterThan(30);
    for (const route of pages) {
      expect([...ACCESS_KEYWORDS, ...PERMISSIONS], `access of ${route.path ?? 'an index route'}`).toContain(accessOf(route));
    }
  });

  it('loads the component of every lazy page', async () => {
    const lazyPages = pages.filter((route) => typeof route.lazy === 'function');
    expect(lazyPages.length).toBeGreaterThan(25);
    for (const route of lazyPages) {
      const loaded = await (route.lazy as () => Promise<RouteObject>)();
      expect(typeof loaded.Component, `component of ${route.path ?? 'an index route'}`).toBe('function');
    }
  });

  const ALL: Role[] = ['STUDENT', 'USER', 'ADMIN', 'SUPER_ADMIN'];
  const ORG: Role[] = ['USER', 'ADMIN', 'SUPER_ADMIN'];
  const CONSOLE: Role[] = ['SUPER_ADMIN'];
  it.each([
    ['/auth/account/profile', ALL],
    ['/auth/account/change-password', ALL],
    ['/auth/account/sessions', ALL],
    ['/auth/account/security', ALL],
    ['/auth/payment/portal', ALL],
    ['/auth/org', ORG],
    ['/auth/org/invite', ORG],
    ['/auth/org/invite-subscribed', ORG],
    ['/auth/org/archived-users', ORG],
    ['/auth/org/profile', ORG],
    ['/auth/org/groups', ORG],
    ['/auth/org/security', ['ADMIN', 'SUPER_ADMIN']],
    ['/auth/groups', ORG],
    ['/auth/groups/org-1', ORG],
    ['/auth/manage-users', ORG],
    ['/auth/manage-users/invite', ORG],
    ['/auth/access', CONSOLE],
    ['/auth/access/organizations', CONSOLE],
    ['/auth/access/organizations/org-1', CONSOLE],
    ['/auth/access/users', CONSOLE],
    ['/auth/access/cases', CONSOLE],
    ['/auth/access/skeleton', CONSOLE],
    ['/auth/access/templates', CONSOLE],
    ['/auth/access/notifications', CONSOLE],
    ['/auth/access/applications', CONSOLE],
  ])('opens %s to the roles of spec section 6', (path, roles) => {
    expect(rolesOpening(path)).toEqual(roles);
  });

  it.each([
    ['/auth', 'public'],
    ['/auth/login', 'public'],
    ['/auth/signup', 'public'],
    ['/auth/choose-password', 'public'],
    ['/auth/reset-password', 'public'],
    ['/auth/reclaim-email', 'public'],
    ['/auth/login/two-factor', 'public'],
    ['/auth/callback', 'public'],
    ['/auth/two-factor/setup', 'public'],
    ['/auth/oauth/consent', 'public'],
    ['/auth/license', 'public'],
    ['/auth/accept-invite', 'public'],
    ['/auth/emailVerified', 'public'],
    ['/auth/org-selection', 'unverified'],
    ['/auth/verify', 'unverified'],
  ])('opens %s as %s', (path, access) => {
    const matches = matchRoutes(routes, path) ?? [];
    expect(matches.at(-1)?.route.path).not.toBe('*');
    expect(matches.map((match) => accessOf(match.route)).filter((value) => value !== undefined)).toEqual(
      access === 'public' ? ['public'] : ['unverified', 'unverified'],
    );
  });
});
