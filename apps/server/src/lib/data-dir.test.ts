import { chmodSync, chownSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DataDirUnsafeError,
  DataDirUnwritableError,
  lockDataDir,
  makeTreePrivate,
  prepareDataDir,
  resolveAuthSecret,
} from './data-dir.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;
const scratch = () => mkdtempSync(path.join(tmpdir(), 'patientsim-dir-'));
/** A user id that is not the one the tests run as ("nobody"). */
const OTHER_UID = 65534;

describe('prepareDataDir', () => {
  it('creates a missing directory, and its parents, private to the owner', () => {
    const dir = path.join(scratch(), 'nested', 'data');
    prepareDataDir(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('makes an existing directory private', () => {
    const dir = scratch();
    chmodSync(dir, 0o755);
    prepareDataDir(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('refuses a world-writable directory and leaves it as it was', () => {
    const dir = scratch();
    chmodSync(dir, 0o777);
    expect(() => prepareDataDir(dir)).toThrow(DataDirUnsafeError);
    expect(() => prepareDataDir(dir)).toThrow(/world-writable/);
    expect(modeOf(dir)).toBe(0o777);
    chmodSync(dir, 0o1777);
    expect(() => prepareDataDir(dir)).toThrow(DataDirUnsafeError);
  });

  it('refuses a directory that belongs to another user and leaves it as it was', () => {
    const dir = scratch();
    chmodSync(dir, 0o755);
    chownSync(dir, OTHER_UID, OTHER_UID);
    expect(() => prepareDataDir(dir)).toThrow(DataDirUnsafeError);
    expect(() => prepareDataDir(dir)).toThrow(`The data directory ${dir} belongs to another user (uid ${OTHER_UID})`);
    expect(modeOf(dir)).toBe(0o755);
    expect(statSync(dir).uid).toBe(OTHER_UID);
  });

  it('says in one line that a directory it cannot create or write is unusable, whatever the reason', () => {
    const file = path.join(scratch(), 'a-file');
    writeFileSync(file, 'x');
    const dir = path.join(file, 'data');
    expect(() => prepareDataDir(dir)).toThrow(DataDirUnwritableError);
    expect(() => prepareDataDir(dir)).toThrow(`The data directory ${dir} cannot be created or written (ENOTDIR)`);
    expect(() => lockDataDir(dir)).toThrow(DataDirUnwritableError);
    expect(() => resolveAuthSecret(dir, undefined)).toThrow(DataDirUnwritableError);
  });
});

describe('resolveAuthSecret', () => {
  const withSecret = (mode: number, uid?: number) => {
    const dir = scratch();
    const file = path.join(dir, 'auth-secret');
    writeFileSync(file, 'planted-secret-0123456789abcdefghijklmnop');
    chmodSync(file, mode);
    if (uid !== undefined) chownSync(file, uid, uid);
    return { dir, file };
  };

  it('refuses an auth secret that belongs to another user', () => {
    const { dir, file } = withSecret(0o600, OTHER_UID);
    expect(() => resolveAuthSecret(dir, undefined)).toThrow(DataDirUnsafeError);
    expect(() => resolveAuthSecret(dir, undefined)).toThrow(`The auth secret ${file} belongs to another user (uid ${OTHER_UID})`);
  });

  it('refuses an auth secret that others may read or write', () => {
    for (const mode of [0o644, 0o640, 0o604, 0o620, 0o602]) {
      const { dir, file } = withSecret(mode);
      expect(() => resolveAuthSecret(dir, undefined)).toThrow(
        `The auth secret ${file} can be read or written by other users (mode ${mode.toString(8)})`,
      );
      expect(modeOf(file)).toBe(mode);
    }
  });

  it('reads a private auth secret of its own, and leaves the file alone when AUTH_SECRET is set', () => {
    expect(resolveAuthSecret(withSecret(0o600).dir, undefined)).toBe('planted-secret-0123456789abcdefghijklmnop');
    expect(resolveAuthSecret(withSecret(0o644, OTHER_UID).dir, 'configured-secret-0123456789abcdef')).toBe(
      'configured-secret-0123456789abcdef',
    );
  });
});

describe('makeTreePrivate', () => {
  it('takes group and other permissions off every file and directory below, and follows no link', () => {
    const dir = scratch();
    const outside = path.join(scratch(), 'outside');
    writeFileSync(outside, 'x', { mode: 0o644 });
    chmodSync(outside, 0o644);
    mkdirSync(path.join(dir, 'base', '1'), { recursive: true });
    chmodSync(path.join(dir, 'base'), 0o755);
    writeFileSync(path.join(dir, 'base', '1', '1259'), 'x');
    chmodSync(path.join(dir, 'base', '1', '1259'), 0o666);
    writeFileSync(path.join(dir, 'PG_VERSION'), '18');
    chmodSync(path.join(dir, 'PG_VERSION'), 0o640);
    symlinkSync(outside, path.join(dir, 'link'));
    makeTreePrivate(dir);
    expect(modeOf(path.join(dir, 'base'))).toBe(0o700);
    expect(modeOf(path.join(dir, 'base', '1', '1259'))).toBe(0o600);
    expect(modeOf(path.join(dir, 'PG_VERSION'))).toBe(0o600);
    expect(modeOf(outside)).toBe(0o644);
  });
});
