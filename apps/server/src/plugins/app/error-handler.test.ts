import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, openTestDatabase, type TestApp } from '../../../test/build-app.js';
import { createClient, type Client } from '../../../test/client.js';
import { addMember, insertGroup, insertUser } from '../../../test/fixtures.js';
import errorHandler from './error-handler.js';

const NUL = '\u0000';
const VALIDATION_FAILED = { statusCode: 400, code: 'VALIDATION_FAILED', message: expect.any(String) };

describe('control characters in input', () => {
  let t: TestApp;
  let client: Client;
  let userId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    const user = await insertUser(t.db, { role: 'ADMIN' });
    userId = user.id;
    await addMember(t.db, await insertGroup(t.db, { name: 'Control Characters Academy' }), user.id, 'ADMIN');
    client = createClient(t.app);
    expect((await client.post('/api/users/auth/sign-in', { email: user.email, password: user.password })).statusCode).toBe(200);
    client.setBearer((await client.post('/api/users/auth/token')).json().idToken);
  });

  it('answers 400, not 500, for a NUL in a path id', async () => {
    for (const url of ['/api/users/extension/groups/a%00b/key-owner', '/api/users/extension/users/a%00b/groups']) {
      const response = await client.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject(VALIDATION_FAILED);
    }
  });

  it('answers 400, not 500, for control characters in a name', async () => {
    for (const given_name of [`a${NUL}b`, 'a\u0007b']) {
      const response = await client.request({ method: 'PATCH', url: `/api/users/users/${userId}`, payload: { given_name } });
      expect(response.statusCode, JSON.stringify(given_name)).toBe(400);
      expect(response.json()).toMatchObject(VALIDATION_FAILED);
    }
    const plain = await client.request({ method: 'PATCH', url: `/api/users/users/${userId}`, payload: { given_name: 'Zoë' } });
    expect(plain.statusCode).toBe(200);
  });
});

describe('text the database cannot store', () => {
  const database = openTestDatabase();
  const app = Fastify();
  beforeAll(async () => {
    const { db } = await database;
    await app.register(errorHandler);
    // Bypasses every schema on purpose: the handler is the safety net behind them.
    app.get('/text', async () => db.execute(sql`select ${`a${NUL}b`}::text as value`));
    app.get('/json', async () => db.execute(sql`select ${'{"a":"\\u0000"}'}::jsonb as value`));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await (await database).drop();
  });

  it('answers 400 VALIDATION_FAILED for invalid byte sequences (22021) and untranslatable characters (22P05)', async () => {
    for (const url of ['/text', '/json']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual({ statusCode: 400, code: 'VALIDATION_FAILED', message: expect.any(String) });
    }
  });
});
