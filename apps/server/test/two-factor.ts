import { generateSync } from 'otplib';
import { expect } from 'vitest';
import type { Client } from './client.js';

/** A code of the authenticator app whose otpauth URI is `totpUri`, `steps` periods from now. */
export function totpCode(totpUri: string, steps = 0): string {
  const secret = new URL(totpUri).searchParams.get('secret');
  if (!secret) throw new Error('no secret in the otpauth URI');
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/** A six-digit code the app does not show now, nor one period either side. */
export function wrongTotpCode(totpUri: string): string {
  const near = new Set([-1, 0, 1].map((steps) => totpCode(totpUri, steps)));
  for (let steps = 10; ; steps += 1) {
    const code = totpCode(totpUri, steps);
    if (!near.has(code)) return code;
  }
}

/** Sets up an authenticator app through the account's routes with the client's session cookie. */
export async function enrolTotp(client: Client, password: string) {
  const started = await client.post('/api/users/account/two-factor/totp', { password });
  expect(started.statusCode, started.body).toBe(200);
  const { totpUri, recoveryCodes } = started.json<{ totpUri: string; recoveryCodes: string[] }>();
  const verified = await client.post('/api/users/account/two-factor/totp/verify', { code: totpCode(totpUri) });
  expect(verified.statusCode, verified.body).toBe(200);
  return { totpUri, recoveryCodes };
}
