import net from 'node:net';
import { randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { groupMember } from '../src/db/schema/groups.js';
import { buildTestApp, type TestApp } from './build-app.js';
import { type Client, createClient } from './client.js';
import { insertGroup, insertUser, signInNewMember } from './fixtures.js';
import { requireRedis, TEST_REDIS_URL } from './redis.js';

/**
 * The server reaches Redis through a TCP relay the test can break in two ways: `cut()` closes every
 * connection and refuses new ones (a network outage, a restarting Redis); `hold()` keeps every
 * connection open but forwards nothing either way (a partition, a stuck proxy), until `release()`.
 * While Redis cannot be reached, sign-in and token renewal answer 503 with Retry-After (the sign-in
 * screen says to try again shortly), never a 500 and never a hang; nothing that needs Redis to end a
 * session answers as if it had ended one; and everything works again once Redis is back, without a
 * restart.
 */
await requireRedis();

/** Relays connections on a local port to the test Redis; see above for `cut` and `hold`. */
function redisRelay() {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<net.Socket>();
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let server: net.Server | null = null;
  let port = 0;
  let isHeld = false;
  let isListening = false;
  const forward = ({ client, upstream }: { client: net.Socket; upstream: net.Socket }) => {
    client.pipe(upstream).pipe(client);
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 6379), target.hostname);
        const pair = { client, upstream };
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => {
            sockets.delete(socket);
            pairs.delete(pair);
          });
          socket.on('error', () => socket.destroy());
        }
        pairs.add(pair);
        if (isHeld) client.pause();
        else forward(pair);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        isListening = true;
        resolve();
      });
    });
  return {
    listen,
    url: () => `redis://127.0.0.1:${port}/${1 + randomInt(15)}`,
    isListening: () => isListening,
    cut: () =>
      new Promise<void>((resolve) => {
        isListening = false;
        for (const socket of sockets) socket.destroy();
        server!.close(() => resolve());
      }),
    /** Stops forwarding bytes either way, on open connections and new ones alike; nothing is closed. */
    hold: () => {
      isHeld = true;
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    /** Forwards again, what was sent meanwhile included (as TCP delivers it once a partition heals). */
    release: () => {
      if (!isHeld) return;
      isHeld = false;
      for (const pair of pairs) forward(pair);
    },
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

// A test that failed half-way leaves Redis reachable for the next.
afterEach(async () => {
  relay.release();
  if (!relay.isListening()) await relay.listen();
  await untilReady();
});

afterAll(async () => {
  await relay.cut();
});

const signIn = (client: Client, who: { email: string; password: string }) =>
  client.post('/api/users/auth/sign-in', { email: who.email, password: who.password });

/** Waits until the server's readiness answers `status` (200 ready, 503 not ready). */
async function untilReadiness(status: 200 | 503) {
  await vi.waitFor(
    async () => {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      if (ready.statusCode !== status) throw new Error(`readiness ${ready.statusCode}: ${ready.body}`);
    },
    { timeout: 20_000, interval: 50 },
  );
}

/** Once Redis is reachable again, the server finds it on its own: its readiness says so. */
const untilReady = () => untilReadiness(200);

/**
 * Once Redis is cut, the server's connection notices when its socket closes: a command sent in
 * between may still be answered. Its readiness says when it has noticed.
 */
const untilNotReady = () => untilReadiness(503);

function expectUnavailable(response: Awaited<ReturnType<Client['post']>>) {
  expect(response.statusCode, response.body).toBe(503);
  expect(response.json()).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

describe('Redis out of reach', () => {
  it('answers sign-in and token renewal with 503 and Retry-After, then serves again once it is back', async () => {
    const browser = createClient(t.app, { ip: '10.77.0.1' });
    expect((await signIn(browser, person)).statusCode).toBe(200);
    expect((await browser.post('/api/users/auth/token')).statusCode).toBe(200);

    await relay.cut();
    await untilNotReady();
    const other = createClient(t.app, { ip: '10.77.0.2' });
    expectUnavailable(await signIn(other, person));
    expectUnavailable(await browser.post('/api/users/auth/token'));

    await relay.listen();
    await untilReady();
    const again = await signIn(other, person);
    expect(again.statusCode, again.body).toBe(200);
    expect((await other.post('/api/users/auth/token')).statusCode).toBe(200);
  }, 60_000);

  it('answers sign-out with 503 and keeps the cookie while the session cannot be ended; once Redis is back, sign-out ends it', async () => {
    const browser = createClient(t.app, { ip: '10.77.0.3' });
    expect((await signIn(browser, person)).statusCode).toBe(200);
    const cookies = new Map(browser.cookies);

    await relay.cut();
    await untilNotReady();
    expectUnavailable(await browser.post('/api/users/auth/sign-out'));
    // Nothing told the browser it was signed out: its cookie is still there to sign out with later.
    expect(new Map(browser.cookies)).toEqual(cookies);

    await relay.listen();
    await untilReady();
    const out = await browser.post('/api/users/auth/sign-out');
    expect(out.statusCode, out.body).toBe(200);
    // The session's cookies are gone; only the device cookie of the sign-in limits stays (decision 0039).
    expect([...browser.cookies.keys()].filter((name) => !name.includes('.device.'))).toEqual([]);
    // A copy of the cookie taken before the sign-out mints nothing any more.
    const copy = createClient(t.app, { ip: '10.77.0.4' });
    for (const [name, value] of cookies) copy.cookies.set(name, value);
    expect((await copy.post('/api/users/auth/token')).statusCode).toBe(401);
  }, 60_000);

  it('removes no member from an organisation while their sessions cannot be ended, and the retry removes them', async () => {
    const orgId = await insertGroup(t.db);
    const admin = await signInNewMember(t, orgId, { role: 'ADMIN' });
    const member = await signInNewMember(t, orgId, { role: 'STUDENT' });
    const remove = () =>
      admin.client.request({ method: 'DELETE', url: `/api/users/extension/groups/${orgId}/members`, payload: [member.userId] });
    const isMember = async () =>
      (
        await t.db
          .select({ userId: groupMember.userId })
          .from(groupMember)
          .where(and(eq(groupMember.groupId, orgId), eq(groupMember.userId, member.userId), isNull(groupMember.removedAt)))
      ).length === 1;

    await relay.cut();
    await untilNotReady();
    expectUnavailable(await remove());
    expect(await isMember()).toBe(true);

    await relay.listen();
    await untilReady();
    const retry = await remove();
    expect(retry.statusCode, retry.body).toBe(200);
    expect(await isMember()).toBe(false);
    expect((await member.client.post('/api/users/auth/token')).statusCode).toBe(401);
    expect((await member.client.get('/api/users/notifications/pending')).statusCode).toBe(401);
  }, 60_000);

  it('keeps a password reset link usable until the reset succeeded', async () => {
    const owner = await insertUser(t.db);
    const anonymous = createClient(t.app, { ip: '10.77.0.5' });
    expect((await anonymous.post('/api/users/auth/request-password-reset', { email: owner.email })).statusCode).toBe(200);
    const mail = await vi.waitFor(() => {
      const found = t.outbox.find((m) => m.to === owner.email && /reset-password\?token=/.test(m.text));
      if (!found) throw new Error('no reset mail yet');
      return found;
    });
    const token = new URL(/https?:\/\/\S*\/auth\/reset-password\?token=\S+/.exec(mail.text)?.[0] ?? '').searchParams.get('token');
    const reset = () => anonymous.post('/api/users/auth/reset-password', { token, newPassword: 'Recovered-Pass-2026' });

    await relay.cut();
    await untilNotReady();
    expectUnavailable(await reset());
    await relay.listen();
    await untilReady();
    const again = await reset();
    expect(again.statusCode, again.body).toBe(200);
    // The answer's body says which dependency refused, should this sign-in ever not be let in.
    const signedIn = await signIn(createClient(t.app, { ip: '10.77.0.6' }), { ...owner, password: 'Recovered-Pass-2026' });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  }, 60_000);
});

describe('Redis that stops answering without closing the connection', () => {
  it('answers sign-in and token renewal with 503 and Retry-After, says it is not ready, and serves again once Redis answers', async () => {
    const browser = createClient(t.app, { ip: '10.77.1.1' });
    // Signed in, but no token yet: the renewal below reads the session, not a remembered copy.
    expect((await signIn(browser, person)).statusCode).toBe(200);

    relay.hold();
    const other = createClient(t.app, { ip: '10.77.1.2' });
    expectUnavailable(await signIn(other, person));
    expectUnavailable(await browser.post('/api/users/auth/token'));
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'unavailable', checks: { redis: 'unavailable', database: 'ready' } });
    // Liveness: the process runs; a restart would not bring Redis back.
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    relay.release();
    await untilReady();
    const again = await signIn(other, person);
    expect(again.statusCode, again.body).toBe(200);
    expect((await other.post('/api/users/auth/token')).statusCode).toBe(200);
    expect((await browser.post('/api/users/auth/token')).statusCode).toBe(200);
  }, 60_000);
});
