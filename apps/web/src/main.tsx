import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const router = createAppRouter();

const root = createRoot(container);
// The first render as a transition: React renders it in slices, yielding to the browser between
// them, rather than in one long task that delays the page's first input. (Preact, which renders
// the production build, renders it at once: decision 0021.)
startTransition(() => {
  root.render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
});
