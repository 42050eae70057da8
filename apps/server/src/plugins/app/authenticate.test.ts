import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { insertUser } from '../../../test/fixtures.js';

let t: TestApp;
let valid: string;
let userId: string;
beforeAll(async () => {
  t = await buildTestApp();
  const user = await insertUser(t.db, { role: 'USER' });
  userId = user.id;
  const client = createClient(t.app);
  expect((await client.post('/api/users/auth/sign-in', { email: user.email, password: user.password })).statusCode).toBe(200);
  valid = (await client.post('/api/users/auth/token')).json().idToken;
});

const encode = (bytes: string | Buffer) => Buffer.from(bytes).toString('base64url');
const groupsWith = (token: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/users/extension/users/${userId}/groups`,
    headers: { authorization: `Bearer ${token}` },
  });

describe('bearer tokens with a malformed header', () => {
  const cases: Array<[string, string | Buffer]> = [
    ['a NUL in kid', JSON.stringify({ alg: 'EdDSA', kid: 'a\u0000b', typ: 'JWT' })],
    ['a NUL in alg', JSON.stringify({ alg: 'Ed\u0000DSA', typ: 'JWT' })],
    ['JSON null', 'null'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"EdDSA"'],
    ['a number kid', JSON.stringify({ alg: 'EdDSA', kid: 42 })],
    ['not JSON', 'not json at all'],
    ['bytes that are not UTF-8', Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0xc3, 0x28])],
    ['nothing', ''],
  ];
  for (const [name, header] of cases) {
    it(`answers 401 TOKEN_INVALID for ${name}`, async () => {
      const [, payload, signature] = valid.split('.');
      const response = await groupsWith(`${encode(header)}.${payload}.${signature}`);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ statusCode: 401, code: 'TOKEN_INVALID', message: expect.any(String) });
    });
  }

  it('still accepts the valid token afterwards', async () => {
    expect((await groupsWith(valid)).statusCode).toBe(200);
  });
});
