import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchRoutes } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createAppRouter, routes } from './app/router';
import { AfterHydration, readTypedValues, restoreTypedValues } from './app/typed-values';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

if (container.hasAttribute('data-prerendered')) {
  // A page the build prerendered (`vite/prerender.ts`): React hydrates it, taking over the HTML
  // shown, and the fields already typed into, rather than rendering anew. Hydrating needs the
  // page's components at once: the routes it matches that load on demand are loaded first, as
  // React Router documents for hydrating such routes.
  const lazyMatches = matchRoutes(routes, window.location)?.filter((match) => match.route.lazy) ?? [];
  await Promise.all(
    lazyMatches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, { ...(await route.lazy()), lazy: undefined });
    }),
  );
  const typed = readTypedValues(container);
  let isHydrated = false;
  const onHydrated = () => {
    // Once, though strict mode runs effects twice in development.
    if (isHydrated) return;
    isHydrated = true;
    container.removeAttribute('data-prerendered');
    restoreTypedValues(typed);
  };
  // As a transition, React hydrates in short slices and lets the browser handle input between
  // them, instead of in one long task (the page is already shown and can be typed into).
  startTransition(() => {
    hydrateRoot(
      container,
      <StrictMode>
        <AfterHydration onHydrated={onHydrated}>
          <AppProviders>
            <RouterProvider router={createAppRouter()} />
          </AppProviders>
        </AfterHydration>
      </StrictMode>,
    );
  });
} else {
  // The first render as a transition too: in short slices rather than one long task (the loading
  // screen of index.html shows meanwhile).
  const root = createRoot(container);
  startTransition(() => {
    root.render(
      <StrictMode>
        <AppProviders>
          <RouterProvider router={createAppRouter()} />
        </AppProviders>
      </StrictMode>,
    );
  });
}
