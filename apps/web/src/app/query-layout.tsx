import { Outlet } from 'react-router';
import { QueryCache } from '../components/query-cache';

/**
 * The query cache for the pages under this route: every page but sign-in and sign-up, which send
 * their one request without it, so that their load does not carry TanStack Query. The route table
 * puts it around the other public pages and around the signed-in layouts; all use the same cache.
 */
export function QueryLayout() {
  return (
    <QueryCache>
      <Outlet />
    </QueryCache>
  );
}
