import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../src/db/client.js';

declare module 'vitest' {
  // Vitest's provided values are typed by augmenting its interface, which a type alias cannot do.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  export interface ProvidedContext {
    /** A migrated, empty embedded database's files (PGlite's dump), or null on PostgreSQL. */
    pgliteTemplate: string | null;
  }
}

/**
 * Migrates one embedded database for the whole run and leaves its files where every test file
 * starts its own database from them (test/build-app.ts): creating a database cluster and migrating
 * it took most of a file's time, once per file.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplate', null);
    return undefined;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'patientsim-template-'));
  const file = path.join(dir, 'migrated.tar');
  const handle = await openPglite(null);
  try {
    await handle.migrate();
    writeFileSync(file, Buffer.from(await (await handle.dumpDataDir()).arrayBuffer()));
  } finally {
    await handle.close();
  }
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
