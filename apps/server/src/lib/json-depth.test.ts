import { describe, expect, it } from 'vitest';
import { isJsonDeeperThan } from './json-depth.js';

describe('isJsonDeeperThan', () => {
  it('counts objects and arrays, not scalars', () => {
    expect(isJsonDeeperThan('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(isJsonDeeperThan('{"a":[1,{"b":2}]}', 2)).toBe(true);
    expect(isJsonDeeperThan('[[],[],[]]', 2)).toBe(false);
    expect(isJsonDeeperThan('"text"', 0)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(isJsonDeeperThan('{"a":"[[[{{{"}', 1)).toBe(false);
    expect(isJsonDeeperThan('{"a":"\\"[[[","b":"\\\\"}', 1)).toBe(false);
    expect(isJsonDeeperThan('{"a":"\\\\",  "b":[[]]}', 2)).toBe(true);
  });

  it('reads a value nested 200,000 deep without recursion', () => {
    expect(isJsonDeeperThan(`${'['.repeat(200_000)}${']'.repeat(200_000)}`, 100)).toBe(true);
  });
});
