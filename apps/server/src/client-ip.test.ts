import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/build-app.js';
import { type Client, createClient } from '../test/client.js';

// The client address that the per-IP limits count (decision 0010). It is observed here through
// the e-mail allowance of one address: 30 e-mails an hour.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
});

let nextAddress = 0;
const askForReset = (client: Client, forwardedFor: string) => {
  nextAddress += 1;
  return client.post(
    '/api/users/auth/request-password-reset',
    { email: `reset-${nextAddress}@example.test` },
    { 'x-forwarded-for': forwardedFor },
  );
};

describe('client address with TRUSTED_PROXIES=127.0.0.1', () => {
  it('comes from X-Forwarded-For when the peer is the proxy, and from the peer otherwise', async () => {
    const proxy = createClient(t.app, { ip: '127.0.0.1' });
    const stranger = createClient(t.app, { ip: '10.7.7.7' });
    for (let i = 0; i < 30; i += 1) expect((await askForReset(proxy, '198.51.100.7')).statusCode).toBe(200);

    // The forwarded address was counted, not the proxy's own: 198.51.100.7 is spent, 198.51.100.8 is not.
    expect((await askForReset(proxy, '198.51.100.7')).statusCode).toBe(429);
    expect((await askForReset(proxy, '198.51.100.8')).statusCode).toBe(200);
    // Entries the client wrote before the proxy's own do not change who it is.
    expect((await askForReset(proxy, '192.0.2.1, 198.51.100.7')).statusCode).toBe(429);
    // A peer that is not a named proxy is itself, whatever it claims.
    expect((await askForReset(stranger, '198.51.100.7')).statusCode).toBe(200);
  });
});
