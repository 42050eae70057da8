import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchRoutes } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createAppRouter, routes } from './app/router';
import { AfterHydration, readTypedValues, restoreTypedValues } from './app/typed-values';

/**
 * A page the build prerendered (`vite/prerender.ts`): React hydrates it, taking over the HTML
 * shown, and the fields already typed into, rather than rendering anew. Hydrating needs the page's
 * components at once: the routes it matches that load on demand are loaded first, as React Router
 * documents for hydrating such routes.
 *
 * Not awaited at the top level of this module: a module that awaits at its top level is still
 * running while the page's chunk loads, and a chunk that imports a module of the first load's files
 * waits for that module (and so, here, for itself) to finish (decision 0062).
 */
async function hydratePrerendered(container: HTMLElement): Promise<void> {
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
}

/** Any other page renders in the browser, over the loading screen of index.html. */
function render(container: HTMLElement): void {
  const root = createRoot(container);
  // The first render as a transition too: in short slices rather than one long task.
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

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');
if (container.hasAttribute('data-prerendered')) {
  hydratePrerendered(container).catch((error: unknown) => {
    // The page stays as prerendered (its form posts without scripts); the error is reported.
    reportError(error);
  });
} else {
  render(container);
}
