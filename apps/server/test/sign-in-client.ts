import { expect } from 'vitest';
import type { TestApp } from './build-app.js';
import { createClient } from './client.js';

let nextIp = 1;

/**
 * Signs an account in with its password (a fresh client IP each time, clear of the sign-in limits)
 * and sets its bearer. Tests build their accounts (test/fixtures.ts); none signs in as the demo seed's.
 */
export async function signInAs(t: TestApp, email: string, password: string) {
  nextIp += 1;
  const client = createClient(t.app, { ip: `10.200.${Math.floor(nextIp / 250)}.${nextIp % 250}` });
  const signIn = await client.post('/api/users/auth/sign-in', { email, password });
  expect(signIn.statusCode, `sign-in of ${email}`).toBe(200);
  const token = await client.post('/api/users/auth/token');
  expect(token.statusCode, `token of ${email}`).toBe(200);
  const body = token.json();
  client.setBearer(body.idToken);
  return { client, payload: body.idTokenPayload, idToken: body.idToken as string, userId: body.idTokenPayload.sub as string };
}

export type SignedInSession = Awaited<ReturnType<typeof signInAs>>;
