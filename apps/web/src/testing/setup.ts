import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { format } from 'node:util';
import { afterEach, beforeEach } from 'vitest';

/**
 * A test that prints an unexpected console.error fails: React warnings (act, keys, invalid
 * DOM nesting) and uncaught render errors all go through it. A test that expects one replaces
 * console.error itself (vi.spyOn(console, 'error').mockImplementation(...)).
 */
const originalConsoleError = console.error;

// Pages, their layouts, the route guards and the modules that start a page's reads are imported on
// first visit (each is a chunk of its own in the build): a test's first render waits for those
// imports, which on a busy machine take longer than the default second of findBy*/waitFor.
configure({ asyncUtilTimeout: 8_000 });

// jsdom does not scroll; the router's scroll restoration calls this on every navigation.
window.scrollTo = () => undefined;
/**
 * jsdom has no media queries; the layout asks for the viewport's width (one side nav on wide
 * screens, another on narrow ones). This answers width queries from jsdom's window, 1024 px wide:
 * the tests see the wide layout, as the browser tests' default viewport does.
 */
window.matchMedia = (query: string): MediaQueryList => {
  const width = window.innerWidth;
  const min = /\(min-width:\s*([\d.]+)px\)/.exec(query);
  const max = /\(max-width:\s*([\d.]+)px\)/.exec(query);
  const matches = (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  };
};

let consoleErrors: string[] = [];

beforeEach(() => {
  consoleErrors = [];
  console.error = (...args: unknown[]) => {
    consoleErrors.push(format(...args));
    originalConsoleError(...args);
  };
});

afterEach(() => {
  cleanup();
  // The files of a worker share one jsdom (vitest.config.ts): each test leaves it as it found it.
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
  const printed = consoleErrors;
  console.error = originalConsoleError;
  if (printed.length > 0) {
    throw new Error(`Unexpected console.error during the test:\n${printed.join('\n---\n')}`);
  }
});
