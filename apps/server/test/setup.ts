import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { runFileCleanups } from './cleanup.js';

// A test that prints an unexpected console.error fails.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length > 0) throw new Error(`Unexpected console.error: ${errors.map((a) => a.map(String).join(' ')).join('\n')}`);
});

// What the file's helpers left to undo (apps, scratch databases, data directories).
afterAll(runFileCleanups);
