import { randomFill } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { hash, verify } from '@node-rs/argon2';
import type * as Core from '@zxcvbn-ts/core';
import type * as LanguageCommon from '@zxcvbn-ts/language-common';
import type * as LanguageEnglish from '@zxcvbn-ts/language-en';
import {
  COMMON_PASSWORD_TEXT,
  isStrongPassword,
  PASSWORD_POLICY_TEXT,
  WEAK_PASSWORD_MESSAGE,
} from '@patientsim/domain/auth/password-policy';
import { createLimiter } from '../lib/concurrency.js';
import { AppError } from '../lib/errors.js';
import { createWaitProbe } from '../lib/wait-probe.js';

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

/**
 * How long a password hash queued now would wait, for overload protection (decision 0047): the
 * wait of the oldest hash for its turn, or the time a no-op task (`crypto.randomFill` of one byte)
 * takes through libuv's thread pool, where hashes run, when that is longer.
 */
export function createPasswordHashWait(): (now?: number) => number {
  const scratch = Buffer.alloc(1);
  const threadPoolWait = createWaitProbe((done) => randomFill(scratch, () => done()));
  return (now = performance.now()) => Math.max(threadPoolWait(now), hashing.oldestWaitMs(now));
}

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

/** The lowest zxcvbn score (0 to 4) a new password may have (decision 0038). */
export const MIN_PASSWORD_SCORE = 3;

/**
 * How much of a password is judged, and how many l33t substitutions are tried: the estimate's time
 * grows steeply with both, and the check runs on the event loop (decision 0038).
 */
const ESTIMATE_OPTIONS = { maxLength: 64, l33tMaxSubstitutions: 10 } as const;

/** The words a guesser tries first against this product's accounts. */
const PRODUCT_WORDS = ['patientsim', 'patient', 'sim', 'simulation', 'ems', 'nursing', 'military', 'medic'];

/** Who a password is for, when known: their address and names are no secret to a guesser. */
export type PasswordOwner = { email?: string | null; givenName?: string | null; familyName?: string | null };

type Estimator = { check: (password: string, userInputs?: string[]) => { score: number } };
let estimator: Estimator | null = null;

/** zxcvbn-ts with its common and English dictionaries, built on the first check (not at start). */
function strengthEstimator(): Estimator {
  if (estimator) return estimator;
  const require = createRequire(import.meta.url);
  const { ZxcvbnFactory } = require('@zxcvbn-ts/core') as typeof Core;
  const common = require('@zxcvbn-ts/language-common') as typeof LanguageCommon;
  const english = require('@zxcvbn-ts/language-en') as typeof LanguageEnglish;
  estimator = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary, product: PRODUCT_WORDS },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    ...ESTIMATE_OPTIONS,
  });
  return estimator;
}

/** The person's address (whole, and its parts) and names, as words a guesser would try. */
function wordsOf(owner: PasswordOwner | undefined): string[] {
  if (!owner) return [];
  const email = owner.email?.toLowerCase() ?? '';
  const local = email.split('@')[0] ?? '';
  const parts = [email, local, ...local.split(/[^a-z0-9]+/), owner.givenName, owner.familyName];
  return [...new Set(parts.flatMap((part) => (part && part.trim().length >= 3 ? [part.trim().toLowerCase()] : [])))];
}

/**
 * Refuses a password outside the policy with `invalid_password` and the policy text (spec 5), and
 * one that is easy to guess (a zxcvbn score below MIN_PASSWORD_SCORE: common passwords and words,
 * names, dates, keyboard patterns, the product's own words and the person's) with the same answer
 * plus why.
 */
export function assertStrongPassword(password: string, owner?: PasswordOwner): void {
  if (!isStrongPassword(password))
    throw new AppError('invalid_password', { message: `${WEAK_PASSWORD_MESSAGE}. ${PASSWORD_POLICY_TEXT}` });
  if (strengthEstimator().check(password, wordsOf(owner)).score < MIN_PASSWORD_SCORE)
    throw new AppError('invalid_password', {
      message: `${WEAK_PASSWORD_MESSAGE}. ${PASSWORD_POLICY_TEXT} ${COMMON_PASSWORD_TEXT}`,
      details: { reason: 'common' },
    });
}
