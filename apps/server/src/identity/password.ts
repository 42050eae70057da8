import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import type * as LanguageCommon from '@zxcvbn-ts/language-common';
import {
  COMMON_PASSWORD_TEXT,
  isStrongPassword,
  PASSWORD_POLICY_TEXT,
  WEAK_PASSWORD_MESSAGE,
} from '@patientsim/domain/auth/password-policy';
import { createLimiter } from '../lib/concurrency.js';
import { AppError } from '../lib/errors.js';

/** argon2id with the OWASP parameters: m=19456 KiB, t=2, p=1. */
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes run one a core at most (decision 0023). Each takes 19 MiB and a core's full attention for
 * about 10 ms: more at once than there are cores only share the cores and their caches, and every
 * hash finishes later. Measured on 2 cores: 4 at a time verified 100–106 a second, 2 at a time 117,
 * and the event loop (which runs the embedded database) kept a core's share. The others wait here,
 * in arrival order, where overload protection reads how long the oldest has waited.
 */
export const hashing = createLimiter(Math.max(1, availableParallelism()));

export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => hash(password, ARGON2_OPTIONS));
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  try {
    return await hashing.run(() => verify(stored, password));
  } catch {
    // A malformed stored hash never matches.
    return false;
  }
}

let commonPasswords: ReadonlySet<string> | null = null;

/**
 * Whether a password, whatever its case, is on zxcvbn-ts's list of common passwords (about 49,000,
 * decision 0011), alone or with digits before or after it ('Password2026' is 'password').
 */
function isCommonPassword(password: string): boolean {
  // Loaded on first use, not at start: unpacking the list takes about 60 ms.
  commonPasswords ??= new Set(
    (createRequire(import.meta.url)('@zxcvbn-ts/language-common') as typeof LanguageCommon).dictionary['passwords-common'].map(
      (entry) => entry.toLowerCase(),
    ),
  );
  const lower = password.toLowerCase();
  const core = lower.replace(/^\d+|\d+$/g, '');
  return commonPasswords.has(lower) || (core !== '' && commonPasswords.has(core));
}

/**
 * Refuses a password outside the policy with `invalid_password` and the policy text (spec 5), and a
 * common one with the same answer plus why.
 */
export function assertStrongPassword(password: string): void {
  if (!isStrongPassword(password))
    throw new AppError('invalid_password', { message: `${WEAK_PASSWORD_MESSAGE}. ${PASSWORD_POLICY_TEXT}` });
  if (isCommonPassword(password))
    throw new AppError('invalid_password', {
      message: `${WEAK_PASSWORD_MESSAGE}. ${PASSWORD_POLICY_TEXT} ${COMMON_PASSWORD_TEXT}`,
      details: { reason: 'common' },
    });
}
