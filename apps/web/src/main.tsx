import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { yieldToBrowser } from './lib/yield-to-browser';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

// The start-up in three tasks rather than one: evaluating the first load's files (the imports
// above), creating the router (which matches the path and starts loading its route's chunks),
// and the first render. On a slow phone each is a task of 50 to 70 ms; together they were one
// of 200 ms during which the browser neither painted nor answered input.
await yieldToBrowser();
const router = createAppRouter();
await yieldToBrowser();

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
