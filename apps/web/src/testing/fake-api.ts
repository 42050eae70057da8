import { vi } from 'vitest';
import { jsonResponse } from './render';

/** A request the fake API received. */
export type FakeRequest = { method: string; path: string; url: URL; headers: Headers; body: unknown };

export type FakeRoute = {
  method: string;
  /** The path without query; a RegExp to match ids. */
  path: string | RegExp;
  respond: (request: FakeRequest) => Response | Promise<Response>;
};

export const ok = () => jsonResponse({ ok: true });

export function errorResponse(status: number, code: string, message: string): Response {
  return jsonResponse({ statusCode: status, code, message }, status);
}

/** What any page of the signed-in shell asks for, answered empty (no notifications, no invitations). */
export const SHELL_ROUTES: FakeRoute[] = [
  { method: 'GET', path: '/api/users/notifications', respond: () => jsonResponse({ data: { notifications: [] } }) },
  { method: 'GET', path: '/api/users/notifications/pending', respond: () => jsonResponse({ data: { notifications: [] } }) },
  { method: 'GET', path: /^\/api\/users\/invites\/user\/[^/]+$/, respond: () => jsonResponse({ data: { invites: [] } }) },
  { method: 'POST', path: '/api/users/invites/pending', respond: () => jsonResponse({ data: { pending: [] } }) },
  {
    method: 'GET',
    path: /^\/api\/users\/extension\/groups\/[^/]+\/key-owner$/,
    // A group without a key owner or group admin: "none" is an answer.
    respond: () => jsonResponse(null),
  },
  { method: 'POST', path: '/api/users/auth/sign-out', respond: ok },
];

function matches(route: FakeRoute, method: string, path: string): boolean {
  if (route.method !== method) return false;
  return typeof route.path === 'string' ? route.path === path : route.path.test(path);
}

/**
 * Stubs fetch with a small fake of the API: the first matching route answers (the given routes
 * before the shell's). A request no route answers fails the test (it prints a console.error).
 */
export function stubApi(routes: FakeRoute[] = [], { withShell = true } = {}) {
  const all = withShell ? [...routes, ...SHELL_ROUTES] : routes;
  const requests: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost:3000');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: FakeRequest = { method, path: url.pathname, url, headers: new Headers(init.headers), body };
    requests.push(request);
    const route = all.find((candidate) => matches(candidate, method, url.pathname));
    if (!route) {
      console.error(`The fake API has no route for ${method} ${url.pathname}`);
      return errorResponse(500, 'NO_FAKE_ROUTE', `No fake for ${method} ${url.pathname}`);
    }
    return route.respond(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    requests,
    /** The requests to `method path` (path without query). */
    callsTo(method: string, path: string | RegExp): FakeRequest[] {
      return requests.filter((request) => matches({ method, path, respond: ok }, request.method, request.path));
    },
  };
}
