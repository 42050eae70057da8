import net from 'node:net';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './build-app.js';
import { createClient } from './client.js';
import { insertUser } from './fixtures.js';
import { requireRedis, TEST_REDIS_URL } from './redis.js';

/**
 * The server reaches Redis through a TCP relay the test can cut and restore, as a network outage
 * or a restarting Redis would: while Redis cannot be reached, sign-in and token renewal answer 503
 * with Retry-After (the sign-in screen says to try again shortly), never a 500, and they work again
 * once Redis is back.
 */
await requireRedis();

/** Relays connections on a local port to the test Redis until `cut()`; `restore()` listens again. */
function redisRelay() {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 6379), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  return {
    listen,
    url: () => `redis://127.0.0.1:${port}/${1 + randomInt(15)}`,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server!.close(() => resolve());
      }),
  };
}

const relay = redisRelay();
let t: TestApp;
let person: Awaited<ReturnType<typeof insertUser>>;

beforeAll(async () => {
  await relay.listen();
  t = await buildTestApp({ env: { REDIS_URL: relay.url() } });
  person = await insertUser(t.db);
});

afterAll(async () => {
  await relay.cut().catch(() => {});
});

describe('Redis out of reach', () => {
  it('answers sign-in and token renewal with 503 and Retry-After, then serves again once it is back', async () => {
    const browser = createClient(t.app, { ip: '10.77.0.1' });
    expect((await browser.post('/api/users/auth/sign-in', { email: person.email, password: person.password })).statusCode).toBe(
      200,
    );
    expect((await browser.post('/api/users/auth/token')).statusCode).toBe(200);

    await relay.cut();
    const other = createClient(t.app, { ip: '10.77.0.2' });
    for (const response of [
      await other.post('/api/users/auth/sign-in', { email: person.email, password: person.password }),
      await browser.post('/api/users/auth/token'),
    ]) {
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }

    await relay.listen();
    const again = await other.post('/api/users/auth/sign-in', { email: person.email, password: person.password });
    expect(again.statusCode, again.body).toBe(200);
    expect((await other.post('/api/users/auth/token')).statusCode).toBe(200);
  }, 60_000);
});
