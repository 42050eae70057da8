import { chmodSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirUnsafeError, makeTreePrivate, prepareDataDir } from './data-dir.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;
const scratch = () => mkdtempSync(path.join(tmpdir(), 'patientsim-dir-'));

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
