import { describe, expect, it } from 'vitest';
import { type RouteHandle, indexPage, page, redirectRoute } from './page';

const signupModule = () => import('../../features/auth/routes/signup');

describe('page', () => {
  it('declares the access, guards with it and loads the named export on first visit', async () => {
    const route = page('signup', 'org:read', signupModule, 'SignupRoute', { id: 'signup-page' });
    expect(route).toMatchObject({ id: 'signup-page', path: 'signup', handle: { access: 'org:read' } satisfies RouteHandle });
    expect(typeof route.loader).toBe('function');
    const { SignupRoute } = await signupModule();
    expect(typeof route.lazy).toBe('function');
    await expect((route.lazy as () => Promise<unknown>)()).resolves.toEqual({ Component: SignupRoute });
  });

  it('keeps a loader of its own and children', () => {
    const loader = () => null;
    const child = page('child', 'public', signupModule, 'SignupRoute');
    const route = page('parent', 'signed-in', signupModule, 'SignupRoute', { loader, children: [child] });
    expect(route.loader).toBe(loader);
    expect(route.children).toEqual([child]);
  });

  it('builds an index page', () => {
    expect(indexPage('public', signupModule, 'SignupRoute')).toMatchObject({ index: true, handle: { access: 'public' } });
  });

  it('leaves the export name to the type checker: a name the module lacks does not compile', async () => {
    // @ts-expect-error the module has no export of this name
    const misspelled = page('signup', 'public', signupModule, 'SignUpRoute');
    // @ts-expect-error an export that is not a component
    page('user', 'public', () => import('../../lib/current-user'), 'deriveCurrentUser');
    // Past the type checker, such a page would load no component at all.
    await expect((misspelled.lazy as () => Promise<unknown>)()).resolves.toEqual({ Component: undefined });
  });
});

describe('redirectRoute', () => {
  it('sends on to its target and declares the access of that target', async () => {
    const route = redirectRoute('manage-users', '/org', 'org:read');
    expect(route).toMatchObject({ path: 'manage-users', handle: { access: 'org:read' } });
    const response = await (route.loader as () => Promise<Response> | Response)();
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/org');
    expect(redirectRoute({ index: true }, '/account/profile', 'signed-in')).toMatchObject({ index: true });
  });
});
