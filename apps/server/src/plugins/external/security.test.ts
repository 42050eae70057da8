import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';

const webRoot = mkdtempSync(path.join(tmpdir(), 'patientsim-web-'));
writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>PatientSim</title>');

describe('behind https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { PUBLIC_URL: 'https://patientsim.example' }, webRoot });
  });

  it('sends HSTS on every answer', async () => {
    for (const url of ['/auth/login', '/api/users/nothing-here', '/healthz']) {
      const response = await t.app.inject({ url });
      expect(response.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
    }
  });
});

describe('over plain http', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ webRoot });
  });

  it('sends no HSTS (a browser would refuse http://localhost afterwards)', async () => {
    expect((await t.app.inject({ url: '/auth/login' })).headers['strict-transport-security']).toBeUndefined();
  });

  it('forbids caching of every /api/ answer, success or error, but not of the web app', async () => {
    const answers = [
      await t.app.inject({ url: '/api/users/nothing-here' }),
      await t.app.inject({ method: 'POST', url: '/api/users/auth/sign-in', payload: { email: 'a@example.test', password: 'x' } }),
      await t.app.inject({ url: '/api/auth/jwks' }),
      await t.app.inject({ url: '/api/docs/json' }),
    ];
    for (const response of answers) expect(response.headers['cache-control'], response.body.slice(0, 80)).toBe('no-store');
    expect((await t.app.inject({ url: '/auth/login' })).headers['cache-control']).toBe('no-cache');
  });
});
