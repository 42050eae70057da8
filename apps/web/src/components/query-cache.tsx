import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useContext } from 'react';
import { createQueryClient } from '../lib/query-client';

/** The app's one query cache, shared by every page that reads the API. */
const appQueryClient = createQueryClient();

/**
 * Provides the app's query cache to `children`, unless a cache is already provided around them
 * (the tests give each render its own). Rendered by the query layout of the route table, and by
 * the parts of the first pages that need the cache, loaded with it on demand.
 */
export function QueryCache({ children }: { children: ReactNode }) {
  const enclosing = useContext(QueryClientContext);
  if (enclosing) return children;
  return <QueryClientProvider client={appQueryClient}>{children}</QueryClientProvider>;
}
