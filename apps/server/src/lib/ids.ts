import { createHash, randomBytes } from 'node:crypto';

/** A 24-character hex id, the shape of the `_id` fields on the wire. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** An unguessable token for links sent by e-mail (256 bits, URL-safe). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only hashes of link tokens are stored. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
