import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedDatabaseDir, latestMigrationTag } from '../db/client.js';
import { markPrepared, needsSeparatePreparation } from './prepare.js';

/** A data directory that looks as a finished preparation leaves it (without starting PostgreSQL). */
function preparedDataDir() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-prepare-'));
  mkdirSync(embeddedDatabaseDir(dataDir));
  writeFileSync(path.join(embeddedDatabaseDir(dataDir), 'PG_VERSION'), '18\n');
  markPrepared(dataDir);
  return dataDir;
}

describe('which data directories a separate process prepares', () => {
  it('a new data directory', () => {
    expect(needsSeparatePreparation(mkdtempSync(path.join(tmpdir(), 'patientsim-prepare-')))).toBe(true);
  });

  it('none once prepared for the migrations of this build', () => {
    expect(needsSeparatePreparation(preparedDataDir())).toBe(false);
  });

  it('one prepared for older migrations, or whose preparation did not finish', () => {
    const older = preparedDataDir();
    writeFileSync(path.join(older, 'database-version'), '0000_init\n');
    expect(latestMigrationTag()).not.toBe('0000_init');
    expect(needsSeparatePreparation(older)).toBe(true);

    const unfinished = preparedDataDir();
    rmSync(path.join(unfinished, 'database-version'));
    expect(needsSeparatePreparation(unfinished)).toBe(true);
  });

  it('one whose database was removed, whatever the note says', () => {
    const dataDir = preparedDataDir();
    rmSync(embeddedDatabaseDir(dataDir), { recursive: true });
    expect(needsSeparatePreparation(dataDir)).toBe(true);
  });
});
