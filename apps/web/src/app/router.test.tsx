import type { Role } from '@patientsim/domain/roles/roles';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { writeGroups, writeLoginResult } from '../lib/session-store';
import { buildGroup, buildGroupsDataEntry, buildLoginResult, buildPayload } from '../testing/factories';
import { jsonResponse, renderRoutes } from '../testing/render';
import { routes } from './router';

function signIn(role: Role, options: { ownerId?: string; emailVerified?: boolean } = {}) {
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
    expect(screen.getByText('You are currently a member of 1 organization(s)')).toBeInTheDocument();
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

  it('renews an expired token through the session cookie before opening the page', async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    writeLoginResult(buildLoginResult({ role: 'ADMIN', iat: nowSeconds - 7200, exp: nowSeconds - 60 }));
    const fetchMock = vi.fn(async () => jsonResponse({ idToken: 'renewed.token.value', idTokenPayload: buildPayload() }));
    vi.stubGlobal('fetch', fetchMock);

    const { router } = renderRoutes(routes, '/auth/account/profile');

    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(pathOf(router)).toBe('/auth/account/profile');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('sends a user whose renewal fails to login', async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    writeLoginResult(buildLoginResult({ role: 'ADMIN', iat: nowSeconds - 7200, exp: nowSeconds - 60 }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ statusCode: 401, code: 'UNAUTHENTICATED', message: 'You must be signed in.' }, 401)),
    );

    renderRoutes(routes, '/auth/account/profile');

    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
  });
});
