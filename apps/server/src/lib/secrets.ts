import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Whether `given` is the secret `expected` (an integration key, an access code). Both sides are
 * hashed first and the digests compared in constant time, so neither the length of the secret nor
 * the first differing byte shows in the time the answer takes. No secret configured, or none given,
 * never matches.
 */
export function isSameSecret(expected: string | undefined, given: unknown): boolean {
  if (!expected || typeof given !== 'string' || given.length === 0) return false;
  return timingSafeEqual(digest(expected), digest(given));
}
