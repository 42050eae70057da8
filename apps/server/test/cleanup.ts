/**
 * Work to undo once the current test file has run: apps to close, scratch databases to drop,
 * data directories to remove. Helpers register it here rather than with `afterAll`, which is
 * ignored when the helper runs inside a `beforeAll` (as most files call `buildTestApp`); the
 * setup file runs it after each file, the last registered first.
 */
const cleanups: Array<() => Promise<void>> = [];

export function cleanUpAfterFile(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

export async function runFileCleanups(): Promise<void> {
  for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop()) await cleanup();
}
