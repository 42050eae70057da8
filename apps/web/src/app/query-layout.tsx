import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext } from 'react';
import { Outlet } from 'react-router';
import { createQueryClient } from '../lib/query-client';

/** The app's one query cache, shared by every page that reads the API. */
const appQueryClient = createQueryClient();

/**
 * The query cache for the pages under this route: every page but sign-in, which sends its one
 * request without it, so that the first load does not carry TanStack Query. The route table puts
 * it around the other public pages and around the signed-in layouts; both use the same cache.
 * A cache provided around the whole app (the tests give each render its own) is kept.
 */
export function QueryLayout() {
  const enclosing = useContext(QueryClientContext);
  if (enclosing) return <Outlet />;
  return (
    <QueryClientProvider client={appQueryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
