import { hash, verify } from '@node-rs/argon2';
import { isStrongPassword, PASSWORD_POLICY_TEXT, WEAK_PASSWORD_MESSAGE } from '@patientsim/domain/auth/password-policy';
import { AppError } from '../lib/errors.js';

/** argon2id with the OWASP parameters: m=19456 KiB, t=2, p=1. */
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    // A malformed stored hash never matches.
    return false;
  }
}

/** Refuses a password outside the policy with `invalid_password` and the policy text (spec 5). */
export function assertStrongPassword(password: string): void {
  if (!isStrongPassword(password))
    throw new AppError('invalid_password', { message: `${WEAK_PASSWORD_MESSAGE}. ${PASSWORD_POLICY_TEXT}` });
}
