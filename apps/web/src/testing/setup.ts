import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { format } from 'node:util';
import { afterEach, beforeEach } from 'vitest';

/**
 * A test that prints an unexpected console.error fails: React warnings (act, keys, invalid
 * DOM nesting) and uncaught render errors all go through it. A test that expects one replaces
 * console.error itself (vi.spyOn(console, 'error').mockImplementation(...)).
 */
const originalConsoleError = console.error;

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
