import { pbkdf2 } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { insertUser, TEST_PASSWORD } from '../../../test/fixtures.js';
import { hashing, hashPassword } from '../../identity/password.js';
import { LOAD_SHEDDING_DEFAULTS } from './under-pressure.js';

// Overload protection (decisions 0018 and 0047), under real pressure made in this process: a busy JavaScript
// thread, a saturated thread pool, and answers slower than the limit.

const SIGN_IN = '/api/users/auth/sign-in';
const UNTIL = { timeout: 20_000, interval: 20 };

function expectShed(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(503);
  expect(response.json()).toEqual({
    statusCode: 503,
    code: 'SERVER_BUSY',
    message: 'The server is busy. Please try again shortly.',
  });
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(30);
}

/** Keeps the JavaScript thread busy in slices of `sliceMs`, letting the event loop turn between them, until stopped. */
function occupyEventLoop(sliceMs: number): () => void {
  let isRunning = true;
  const spin = () => {
    if (!isRunning) return;
    const until = performance.now() + sliceMs;
    while (performance.now() < until) {
      // busy on purpose: this is the load
    }
    setImmediate(spin);
  };
  setImmediate(spin);
  return () => {
    isRunning = false;
  };
}

/**
 * Keeps libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise) 64 key derivations
 * deep, each of a few dozen milliseconds, until stopped; the returned promise ends with the last.
 */
function occupyThreadPool(): { stop: () => Promise<void> } {
  const derive = promisify(pbkdf2);
  let isRunning = true;
  const lane = async () => {
    while (isRunning) await derive('load', 'salt', 50_000, 32, 'sha512');
  };
  const lanes = Promise.all(Array.from({ length: 64 }, lane));
  return {
    stop: async () => {
      isRunning = false;
      await lanes;
    },
  };
}

async function signIn(t: TestApp, email: string, password = TEST_PASSWORD) {
  return t.app.inject({ method: 'POST', url: SIGN_IN, payload: { email, password } });
}

describe('load shedding at the default limits', () => {
  // Any backlog: each measure alone, on requests sent one at a time.
  let t: TestApp;
  let email: string;
  beforeAll(async () => {
    const webRoot = mkdtempSync(path.join(tmpdir(), 'patientsim-web-'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>PatientSim</title>');
    t = await buildTestApp({ webRoot, loadShedding: { enabled: true, sampleIntervalMs: 20, minBacklog: 0 } });
    ({ email } = await insertUser(t.db));
  });

  it('lets everything through on a quiet server', async () => {
    // Several samples of a quiet process.
    await vi.waitFor(
      () => expect(t.app.pressure().eventLoopDelayMs).toBeLessThan(LOAD_SHEDDING_DEFAULTS.maxEventLoopDelayMs),
      UNTIL,
    );
    expect(t.app.pressure().isShedding).toBe(false);
    expect((await signIn(t, email)).statusCode).toBe(200);
  });

  it('refuses API work at once while the JavaScript thread is saturated, and serves health checks, keys and the web app', async () => {
    const stop = occupyEventLoop(2 * LOAD_SHEDDING_DEFAULTS.maxEventLoopDelayMs);
    try {
      await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(true), UNTIL);
      expect(t.app.pressure().eventLoopDelayMs).toBeGreaterThan(LOAD_SHEDDING_DEFAULTS.maxEventLoopDelayMs);
      // under-pressure judges by our check: its own reading agrees.
      expect(t.app.isUnderPressure()).toBe(true);

      expectShed(await signIn(t, email));
      // Before anything else runs: no token is read, no body is parsed.
      expectShed(await t.app.inject({ method: 'GET', url: '/api/users/extension/users/someone/groups' }));
      expectShed(
        await t.app.inject({
          method: 'POST',
          url: SIGN_IN,
          payload: 'not json',
          headers: { 'content-type': 'application/json' },
        }),
      );

      // Health checks answer from their own checks: alive, and the database answers.
      const health = await t.app.inject({ url: '/healthz' });
      expect([health.statusCode, health.json()]).toEqual([200, { status: 'ok' }]);
      const ready = await t.app.inject({ url: '/readyz' });
      expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ready', checks: { database: 'ready' } }]);
      // What the sign-in screen and token verifiers need.
      expect((await t.app.inject({ url: '/auth/login' })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/.well-known/openid-configuration' })).statusCode).toBe(200);
      // Renewing a token and signing out keep signed-in people going: judged as usual.
      expect((await t.app.inject({ method: 'POST', url: '/api/users/auth/token' })).json()).toMatchObject({
        code: 'UNAUTHENTICATED',
      });
      expect((await t.app.inject({ method: 'POST', url: '/api/users/auth/sign-out' })).statusCode).toBe(200);
      // An unknown path is still unknown.
      expect((await t.app.inject({ url: '/api/users/no-such-route' })).statusCode).toBe(404);
    } finally {
      stop();
    }
    await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(false), UNTIL);
    expect((await signIn(t, email)).statusCode).toBe(200);
  });

  it('refuses sign-ins while password hashing would queue, without counting them as attempts', async () => {
    const pool = occupyThreadPool();
    try {
      // On a machine short of CPU the event loop may trip first: wait until the hashes' wait has too.
      await vi.waitFor(() => {
        expect(t.app.pressure().isShedding).toBe(true);
        expect(t.app.pressure().threadPoolDelayMs).toBeGreaterThan(LOAD_SHEDDING_DEFAULTS.maxThreadPoolDelayMs);
      }, UNTIL);
      // Six wrong passwords would lock the account (decision 0010); refused unread, none counts.
      for (let attempt = 0; attempt < 6; attempt += 1) expectShed(await signIn(t, email, 'Wrong-Pass-2026'));
    } finally {
      await pool.stop();
    }
    await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(false), UNTIL);
    expect((await signIn(t, email)).statusCode).toBe(200);
    expect(t.app.pressure().shedCount).toBeGreaterThanOrEqual(6);
  });
});

describe('load shedding while password hashes wait for their turn', () => {
  // Hashes run one a core at most (decision 0023): a queue of them in front of that limit trips the
  // same measure as a full thread pool, though the pool itself has threads free.
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      loadShedding: { enabled: true, sampleIntervalMs: 20, minBacklog: 0, maxThreadPoolDelayMs: 100 },
    });
  });

  it('counts the wait of the oldest queued hash', async () => {
    let isRunning = true;
    const lane = async () => {
      while (isRunning) await hashPassword('Queued-Pass-2026');
    };
    const lanes = Promise.all(Array.from({ length: 64 }, lane));
    try {
      await vi.waitFor(() => expect(hashing.size.waiting).toBeGreaterThan(0), UNTIL);
      await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(true), UNTIL);
      expect(t.app.pressure().threadPoolDelayMs).toBeGreaterThan(100);
      expectShed(await signIn(t, 'nobody@example.test'));
    } finally {
      isRunning = false;
      await lanes;
    }
    await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(false), UNTIL);
  });
});

describe('load shedding while the database is held', () => {
  // Only the database measure can trip. The embedded engine runs one statement at a time, so one
  // open transaction holds it; PostgreSQL's pool (four connections in tests) takes four.
  const limits = {
    enabled: true,
    sampleIntervalMs: 20,
    maxEventLoopDelayMs: 60_000,
    maxThreadPoolDelayMs: 60_000,
    maxDatabaseDelayMs: 100,
    maxRequestDelayMs: 60_000,
    minBacklog: 0,
  };
  let t: TestApp;
  let email: string;
  beforeAll(async () => {
    t = await buildTestApp({ loadShedding: limits });
    ({ email } = await insertUser(t.db));
  });

  it('refuses API work while a trivial query waits for the database, and serves again once it answers', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = Promise.all(Array.from({ length: 4 }, () => t.db.transaction(() => released)));
    try {
      await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(true), UNTIL);
      expect(t.app.pressure().databaseDelayMs).toBeGreaterThan(limits.maxDatabaseDelayMs);
      expect(t.app.pressure().eventLoopDelayMs).toBeLessThan(limits.maxEventLoopDelayMs);
      // Refused before it reads anything: served, it would wait for the database.
      expectShed(await signIn(t, email));
    } finally {
      release();
      await holders;
    }
    await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(false), UNTIL);
    expect((await signIn(t, email)).statusCode).toBe(200);
  });
});

describe('load shedding on slow answers', () => {
  // Only the end-to-end measure can trip: every sign-in (a password hash) takes longer than 1 ms.
  const limits = {
    enabled: true,
    sampleIntervalMs: 20,
    maxEventLoopDelayMs: 60_000,
    maxThreadPoolDelayMs: 60_000,
    maxDatabaseDelayMs: 60_000,
    maxRequestDelayMs: 1,
    minBacklog: 0,
  };
  let t: TestApp;
  let emails: string[];
  beforeAll(async () => {
    t = await buildTestApp({ loadShedding: limits });
    emails = [];
    for (let index = 0; index < 4; index += 1) emails.push((await insertUser(t.db)).email);
  });

  it('refuses API work once even the fastest answer of the last second was too slow, until the backlog is gone', async () => {
    const answers = await Promise.all(emails.map((email) => signIn(t, email)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);

    await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(true), UNTIL);
    expect(t.app.pressure().requestDelayMs).toBeGreaterThan(limits.maxRequestDelayMs);
    expectShed(await signIn(t, emails[0]!));

    // Refused requests are no answers of the API: the slow ones age out of the window.
    await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(false), UNTIL);
    expect((await signIn(t, emails[0]!)).statusCode).toBe(200);
  });

  it('refuses API work while four requests wait unanswered, before any answer comes', async () => {
    await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(false), UNTIL);
    // Their password hashes wait behind a full thread pool: nothing is answered meanwhile.
    const pool = occupyThreadPool();
    const stuck = Promise.all(emails.map((email) => signIn(t, email)));
    try {
      await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(true), UNTIL);
      expect(t.app.pressure().inFlight).toBe(emails.length);
      expectShed(await signIn(t, emails[0]!));
    } finally {
      await pool.stop();
    }
    expect((await stuck).map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
  });
});

describe('load shedding needs a backlog', () => {
  let t: TestApp;
  let emails: string[];
  beforeAll(async () => {
    t = await buildTestApp({ loadShedding: { enabled: true, sampleIntervalMs: 20 } });
    emails = [];
    for (let index = 0; index < LOAD_SHEDDING_DEFAULTS.minBacklog + 1; index += 1) emails.push((await insertUser(t.db)).email);
  });

  it('serves a lone request on a saturated machine, and refuses the next once enough are in progress', async () => {
    const stop = occupyEventLoop(2 * LOAD_SHEDDING_DEFAULTS.maxEventLoopDelayMs);
    try {
      await vi.waitFor(() => expect(t.app.pressure().isShedding).toBe(true), UNTIL);
      // Its wait comes from elsewhere: refusing it frees nothing.
      expect((await signIn(t, emails[0]!)).statusCode).toBe(200);

      const backlog = emails.slice(1).map((email) => signIn(t, email));
      await vi.waitFor(() => expect(t.app.pressure().inFlight).toBe(LOAD_SHEDDING_DEFAULTS.minBacklog), UNTIL);
      expectShed(await signIn(t, emails[0]!));
      // Those let in are served.
      expect((await Promise.all(backlog)).map((answer) => answer.statusCode)).toEqual(
        Array.from({ length: LOAD_SHEDDING_DEFAULTS.minBacklog }, () => 200),
      );
    } finally {
      stop();
    }
  });
});

describe('load shedding forgets requests whose client hung up', () => {
  it('takes a sign-in out of the backlog when its client closes the connection after sending it whole', async () => {
    const t = await buildTestApp({ loadShedding: { enabled: true, sampleIntervalMs: 20 } });
    const { email } = await insertUser(t.db);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const body = JSON.stringify({ email, password: TEST_PASSWORD });
    // Hashing queues behind the pool's other work, so each sign-in is still unanswered when its client leaves.
    const pool = occupyThreadPool();
    try {
      for (let round = 0; round < 3; round += 1) {
        const socket = net.connect(Number(new URL(address).port), '127.0.0.1');
        await once(socket, 'connect');
        socket.write(
          `POST ${SIGN_IN} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        await vi.waitFor(() => expect(t.app.pressure().inFlight).toBe(1), UNTIL);
        socket.destroy();
        await vi.waitFor(() => expect(t.app.pressure().inFlight).toBe(0), UNTIL);
      }
    } finally {
      await pool.stop();
      await t.app.close();
    }
  });
});
