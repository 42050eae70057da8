import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkIntegrationKey } from '../modules/integrations/integrations.service.js';
import { isSameSecret } from './secrets.js';

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof crypto>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

/** The byte lengths of each pair `timingSafeEqual` compared. */
const compared = () => vi.mocked(crypto.timingSafeEqual).mock.calls.map(([a, b]) => [a.byteLength, b.byteLength]);

afterEach(() => {
  vi.mocked(crypto.timingSafeEqual).mockClear();
});

const SECRET = 'integration-key-0123456789abcdef';

describe('isSameSecret', () => {
  it('matches only the same secret', () => {
    expect(isSameSecret(SECRET, SECRET)).toBe(true);
    expect(isSameSecret(SECRET, `${SECRET.slice(0, -1)}0`)).toBe(false);
    expect(isSameSecret(SECRET, SECRET.toUpperCase())).toBe(false);
  });

  it('compares a shorter, a longer and an equally long wrong secret the same way: digests of equal length', () => {
    for (const given of ['x', `${SECRET}-and-more`, SECRET.replace('i', 'j')]) {
      expect(isSameSecret(SECRET, given)).toBe(false);
    }
    expect(compared()).toEqual([
      [32, 32],
      [32, 32],
      [32, 32],
    ]);
  });

  it('never matches when no secret is configured or none is given', () => {
    expect(isSameSecret(undefined, '')).toBe(false);
    expect(isSameSecret('', '')).toBe(false);
    expect(isSameSecret(SECRET, '')).toBe(false);
    expect(isSameSecret(SECRET, undefined)).toBe(false);
    expect(isSameSecret(SECRET, ['integration-key-0123456789abcdef'])).toBe(false);
  });
});

describe('the integration key check', () => {
  it('compares a wrong key of another length in constant time, through the one helper', () => {
    expect(() => checkIntegrationKey(SECRET, 'short')).toThrow('A valid integration key is required.');
    expect(compared()).toEqual([[32, 32]]);
    expect(() => checkIntegrationKey(SECRET, SECRET)).not.toThrow();
    expect(() => checkIntegrationKey(undefined, SECRET)).toThrow('A valid integration key is required.');
  });
});
