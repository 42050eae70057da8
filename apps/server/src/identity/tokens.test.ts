import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { loadEnv } from '../config/env.js';
import { jwks } from '../db/schema/auth.js';
import { createMailer } from '../mail/mailer.js';
import { buildProductClaims } from '../modules/users/claims.js';
import { openTestDatabase, TEST_PUBLIC_URL } from '../../test/build-app.js';
import { tokenLifetimeSeconds } from './tokens.js';
import { insertUser } from '../../test/fixtures.js';
import { requireRedis, testRedisUrlOnDatabase } from '../../test/redis.js';

/**
 * The token service remembers verified tokens and the signing keys. Several processes (app
 * instances on one database and one Redis database of this file's own) must not keep trusting a
 * key that is gone: a new key is announced to every process, and a key that left the table takes
 * the tokens it signed with it.
 */
await requireRedis();

const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-test-'));
const database = await openTestDatabase();
const redisUrl = testRedisUrlOnDatabase(1 + randomInt(15));
const secret = randomBytes(32).toString('hex');
const silent = { info() {}, error() {}, warn() {}, debug() {} } as never;
const apps: Array<Awaited<ReturnType<typeof buildApp>>> = [];
async function startProcess(processSecret = secret) {
  const app = await buildApp({
    env: loadEnv({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, DATA_DIR: dataDir, LOG_LEVEL: 'silent', REDIS_URL: redisUrl }),
    database,
    secret: processSecret,
    mailer: createMailer({ from: 'PatientSim <no-reply@localhost>', outboxDir: null, log: silent }),
  });
  await app.ready();
  apps.push(app);
  return app;
}

afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid: string }).kid;

async function claimsOfNewUser() {
  const person = await insertUser(database.db, { email: `tokens-${randomBytes(4).toString('hex')}@example.test` });
  const claims = await buildProductClaims(database.db, person.id);
  if (!claims) throw new Error('no claims');
  return claims;
}

describe('token keys on several processes', () => {
  it('a key created by one process is announced: every other one forgets the keys and tokens it remembers', async () => {
    const [first, second] = [await startProcess(), await startProcess()];
    const claims = await claimsOfNewUser();
    const old = await first.tokens.sign(claims, { sessionId: 'session-1' });
    expect((await second.tokens.verify(old.idToken)).sub).toBe(claims.sub);

    // The key is withdrawn (say it leaked); a new process finds none and creates one.
    await database.db.delete(jwks);
    const third = await startProcess();
    const fresh = await third.tokens.sign(claims, { sessionId: 'session-1' });
    expect(kidOf(fresh.idToken)).not.toBe(kidOf(old.idToken));

    // The others heard of it: the withdrawn key's token is refused though it verified before, the
    // new key's tokens verify (their key is no unknown kid), and signing moves to the new key.
    await vi.waitFor(() => expect(second.tokens.verify(old.idToken)).rejects.toMatchObject({ code: 'TOKEN_INVALID' }), {
      timeout: 2_000,
      interval: 10,
    });
    expect((await second.tokens.verify(fresh.idToken)).sub).toBe(claims.sub);
    expect((await first.tokens.verify(fresh.idToken)).sub).toBe(claims.sub);
    expect(kidOf((await first.tokens.sign(claims, { sessionId: 'session-1' })).idToken)).toBe(kidOf(fresh.idToken));
  });

  it('a remembered token is refused once its key has left the table, when the keys are read again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const app = await startProcess();
    const claims = await claimsOfNewUser();
    const { idToken } = await app.tokens.sign(claims, { sessionId: 'session-2' });
    expect((await app.tokens.verify(idToken)).sub).toBe(claims.sub);

    // The same key material under another id, and the old id gone (no new key to announce).
    const [row] = await database.db
      .select()
      .from(jwks)
      .where(eq(jwks.id, kidOf(idToken)));
    if (!row) throw new Error('no key row');
    await database.db.insert(jwks).values({ ...row, id: `${row.id}-renamed` });
    await database.db.delete(jwks).where(eq(jwks.id, row.id));
    expect((await app.tokens.verify(idToken)).sub).toBe(claims.sub);

    vi.setSystemTime(Date.now() + 61_000);
    await expect(app.tokens.verify(idToken)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });
});

describe('a process started with another secret', () => {
  it('is told at start that the signing keys of its database are not its own, in words that name the remedy', async () => {
    const first = await startProcess();
    await first.tokens.checkSigningKey();
    const other = await startProcess(randomBytes(32).toString('hex'));
    await expect(other.tokens.checkSigningKey()).rejects.toThrow(/signing keys .* another AUTH_SECRET.*AUTH_SECRET.*DATA_DIR/s);
  });
});

describe('tokenLifetimeSeconds', () => {
  it('gives students 1200 s and every role with a lasting session an hour (spec section 6, decision 2)', () => {
    expect(tokenLifetimeSeconds('STUDENT')).toBe(1200);
    for (const role of ['USER', 'ADMIN', 'SUPER_ADMIN'] as const) expect(tokenLifetimeSeconds(role), role).toBe(3600);
  });
});
