import { expect } from 'vitest';
import { DEMO_PASSWORD } from '../src/seed/demo.js';
import type { TestApp } from './build-app.js';
import { createClient } from './client.js';

let nextIp = 1;

/** Signs a demo account in (a fresh client IP each time, clear of the sign-in limits) and sets its bearer. */
export function signInDemo(t: TestApp, email: string) {
  return signInAs(t, email, DEMO_PASSWORD);
}

/** Signs any account in with its password (a fresh client IP each time) and sets its bearer. */
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

export type DemoSession = Awaited<ReturnType<typeof signInDemo>>;
