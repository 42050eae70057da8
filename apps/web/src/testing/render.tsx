import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { type RouteObject, RouterProvider, createMemoryRouter } from 'react-router';
import { AppProviders, queryClient } from '../app/providers';
import { APP_BASENAME } from '../config/paths';

/** Renders `ui` at `path` (a full path, with the app base) with the app's providers and a memory router. */
export function renderWithRouter(ui: ReactNode, { path = `${APP_BASENAME}/`, routePath = '*' } = {}) {
  return renderRoutes([{ path: routePath, element: ui }], path);
}

/**
 * Renders a route table at `path` (a full path) with the app's providers, its query cache emptied
 * first (the route loaders start their reads in that cache); returns the router for location checks.
 */
export function renderRoutes(routes: RouteObject[], path: string) {
  queryClient.clear();
  const router = createMemoryRouter(routes.map(underAppBase), { initialEntries: [path] });
  const view = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/**
 * Tests write the paths of their own small route tables as the route table's files do, relative
 * to the /auth area (`/callback`); the router runs at the root, so they are placed under /auth.
 * Full paths (`/auth/...`, `/authoring/...`) and the app's own table are kept as they are.
 */
function underAppBase(route: RouteObject): RouteObject {
  const { path } = route;
  if (!path?.startsWith('/') || path === '/' || path.startsWith(APP_BASENAME)) return route;
  return { ...route, path: `${APP_BASENAME}${path}` };
}

/** A JSON answer for a stubbed fetch. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** The parsed JSON body of the `index`-th call of a stubbed fetch. */
export function requestBodyOf(fetchMock: { mock: { calls: unknown[][] } }, index = 0): unknown {
  const init = fetchMock.mock.calls[index]?.[1] as RequestInit | undefined;
  if (typeof init?.body !== 'string') throw new Error(`Call ${index} has no JSON body.`);
  return JSON.parse(init.body);
}

/** The URL of the `index`-th call of a stubbed fetch. */
export function requestUrlOf(fetchMock: { mock: { calls: unknown[][] } }, index = 0): unknown {
  return fetchMock.mock.calls[index]?.[0];
}
