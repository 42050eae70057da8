import { STORAGE_KEYS } from '@patientsim/domain/common/constants';
import { describe, expect, it, vi } from 'vitest';
import { readActiveGroups, readGroups, readLoginResult } from '../../../lib/session-store';
import { NORTHGATE_ID, RIVERSIDE_ID, buildGroup, buildPayload } from '../../../testing/factories';
import { jsonResponse } from '../../../testing/render';
import { GROUPS_LOAD_ERROR_MESSAGE, completeLogin } from './complete-login';

const origin = 'http://localhost:3000';
const callbackPath = '/auth/callback?redirectUrl=%2Fauth%2Faccount%2Fprofile';

type Route = { match: (url: string, init?: RequestInit) => boolean; respond: () => Response };

function stubApi(routes: Route[]) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const route = routes.find((candidate) => candidate.match(url, init));
    if (!route) throw new Error(`Unexpected request ${url}`);
    return route.respond();
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const tokenRoute = (payload = buildPayload()): Route => ({
  match: (url) => url === '/api/users/auth/token',
  respond: () => jsonResponse({ idToken: 'id.token.value', idTokenPayload: payload }),
});

const groupsRoute = (respond: () => Response): Route => ({
  match: (url) => url.startsWith('/api/users/extension/users/'),
  respond,
});

const riverside = buildGroup({ _id: RIVERSIDE_ID });
const cohort = buildGroup({ _id: 'cohort-a', name: 'rive::Paramedic Cohort A' }, { parent: RIVERSIDE_ID });
const northgate = buildGroup({ _id: NORTHGATE_ID, name: 'Northgate Nursing School' }, { productType: 'NURSING' });

describe('completeLogin', () => {
  it('stores the login result, product type and groups, then goes to verifyEmail', async () => {
    const fetchMock = stubApi([tokenRoute(), groupsRoute(() => jsonResponse([riverside, cohort]))]);

    await expect(completeLogin({ redirectUrl: null, callbackPath, origin })).resolves.toEqual({
      kind: 'route',
      to: '/auth/verify',
    });

    expect(readLoginResult()?.idToken).toBe('id.token.value');
    expect(window.localStorage.getItem(STORAGE_KEYS.productType)).toBe('EMS');
    expect(readGroups()).toHaveLength(2);
    expect(readActiveGroups().map((group) => group._id)).toEqual([RIVERSIDE_ID, 'cohort-a']);
    const [groupsUrl, groupsInit] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(groupsUrl).toBe('/api/users/extension/users/user-1/groups');
    expect(new Headers(groupsInit.headers).get('Authorization')).toBe('Bearer id.token.value');
  });

  it('goes to org selection with more than one organisation', async () => {
    stubApi([tokenRoute(), groupsRoute(() => jsonResponse([riverside, cohort, northgate]))]);
    await expect(completeLogin({ redirectUrl: null, callbackPath, origin })).resolves.toEqual({
      kind: 'route',
      to: '/auth/org-selection',
    });
  });

  it('follows a same-origin redirectUrl, inside or outside the app', async () => {
    stubApi([tokenRoute(), groupsRoute(() => jsonResponse([riverside, northgate]))]);
    await expect(completeLogin({ redirectUrl: '/auth/account/profile', callbackPath, origin })).resolves.toEqual({
      kind: 'route',
      to: '/auth/account/profile',
    });
    // The scenario library is a page of this app too (decision 1).
    await expect(completeLogin({ redirectUrl: '/authoring/cases?x=1', callbackPath, origin })).resolves.toEqual({
      kind: 'route',
      to: '/authoring/cases?x=1',
    });
    await expect(completeLogin({ redirectUrl: '/authoring/assignments', callbackPath, origin })).resolves.toEqual({
      kind: 'document',
      href: '/authoring/assignments',
    });
  });

  it('ignores a redirectUrl to another site', async () => {
    stubApi([tokenRoute(), groupsRoute(() => jsonResponse([riverside]))]);
    await expect(completeLogin({ redirectUrl: 'https://evil.example.test/', callbackPath, origin })).resolves.toEqual({
      kind: 'route',
      to: '/auth/verify',
    });
  });

  it('sends a user who has not accepted the license to the license screen, returning here', async () => {
    stubApi([
      {
        match: (url) => url === '/api/users/auth/token',
        respond: () =>
          jsonResponse(
            {
              statusCode: 403,
              code: 'LICENSE_NOT_ACCEPTED',
              message: 'You must accept the license agreement.',
              details: { licenseToken: 'lic-token' },
            },
            403,
          ),
      },
    ]);
    const destination = await completeLogin({ redirectUrl: null, callbackPath, origin });
    expect(destination.kind).toBe('route');
    const url = new URL(destination.kind === 'route' ? destination.to : '', origin);
    expect(url.pathname).toBe('/auth/license');
    expect(url.searchParams.get('token')).toBe('lic-token');
    expect(url.searchParams.get('next')).toBe(callbackPath);
    expect(readLoginResult()).toBeNull();
  });

  it("fails with 'No authentication hash to parse' when there is no session to complete", async () => {
    stubApi([
      {
        match: (url) => url === '/api/users/auth/token',
        respond: () => jsonResponse({ statusCode: 401, code: 'UNAUTHENTICATED', message: 'You must be signed in.' }, 401),
      },
    ]);
    await expect(completeLogin({ redirectUrl: null, callbackPath, origin })).rejects.toThrow('No authentication hash to parse');
  });

  it('reports a groups failure as no response from the server', async () => {
    stubApi([tokenRoute(), groupsRoute(() => new Response('', { status: 502 }))]);
    await expect(completeLogin({ redirectUrl: null, callbackPath, origin })).rejects.toThrow(GROUPS_LOAD_ERROR_MESSAGE);
  });

  it('sends a person whose organisation requires a second factor to set one up, then back to the callback', async () => {
    const fetchMock = stubApi([
      {
        match: (url) => url === '/api/users/auth/token',
        respond: () =>
          jsonResponse(
            {
              statusCode: 403,
              code: 'TWO_FACTOR_ENROLMENT_REQUIRED',
              message: 'Your organization requires a second factor. Set one up to continue.',
            },
            403,
          ),
      },
    ]);
    await expect(completeLogin({ redirectUrl: null, callbackPath, origin })).resolves.toEqual({
      kind: 'route',
      to: `/auth/two-factor/setup?${new URLSearchParams({ next: callbackPath }).toString()}`,
    });
    // No token: nothing stored, no groups asked for.
    expect(readLoginResult()).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
