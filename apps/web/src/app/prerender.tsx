import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouterProvider, createStaticHandler, createStaticRouter } from 'react-router';
import { AppProviders } from './providers';
import { routes } from './router';

/**
 * The HTML of the public page at `url` as the app first renders it there, for the build to write
 * into that page's copy of index.html (`vite/prerender.ts`). The same providers and routes as in
 * the browser (`main.tsx`), so that React hydrates the page rather than rendering it again.
 * Emotion writes each component's styles in a `<style>` element before it (its server rendering
 * without configuration); in the browser, its cache moves them into the head before hydration.
 * `hydrate={false}`: the page's routes have no loaders, so there is no data to pass on, and the
 * security policy allows no inline script.
 */
export async function renderPage(url: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error(`${url} answers a redirect (${context.status}), not a page`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <AppProviders>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
}
