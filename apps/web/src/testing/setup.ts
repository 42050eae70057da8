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

// Pages, their layouts and the route guards are imported on first visit (each is a chunk of its
// own in the build): a test's first render waits for those imports, which on a busy machine take
// longer than the default second of findBy*/waitFor.
configure({ asyncUtilTimeout: 4_000 });

// jsdom does not scroll; the router's scroll restoration calls this on every navigation.
window.scrollTo = () => undefined;
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
  window.localStorage.clear();
  const printed = consoleErrors;
  console.error = originalConsoleError;
  if (printed.length > 0) {
    throw new Error(`Unexpected console.error during the test:\n${printed.join('\n---\n')}`);
  }
});
