import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/build-app.js';
import { ConfigError, loadEnv } from './config/env.js';
import { DataDirLockedError, lockDataDir, resolveAuthSecret } from './lib/data-dir.js';

describe('configuration', () => {
  it('applies the defaults of the run contract', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      PUBLIC_URL: 'http://localhost:3000',
      DATA_DIR: './data',
      SEED: 'demo',
      MAIL_FROM: 'PatientSim <no-reply@localhost>',
    });
    expect(loadEnv({ PORT: '4100' }).PUBLIC_URL).toBe('http://localhost:4100');
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadEnv({ PORT: 'eighty', SEED: 'everything', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://mail', NODE_ENV: 'production' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'SEED', 'DATABASE_URL', 'SMTP_URL']) expect(problems).toContain(name);
  });

  it('requires AUTH_SECRET in production', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET/);
    expect(
      loadEnv({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), SMTP_URL: 'smtp://mail.example:587' }).AUTH_SECRET,
    ).toHaveLength(32);
  });
});

describe('data directory', () => {
  it('refuses a second lock while the first holder runs, and frees it on release', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'patientsim-lock-'));
    const first = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    first.release();
    lockDataDir(dir).release();
  });

  it('takes over a lock left by a process that no longer runs', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'patientsim-lock-'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'server.lock'), '999999999');
    expect(() => lockDataDir(dir).release()).not.toThrow();
  });

  it('generates the auth secret once and reuses it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'patientsim-secret-'));
    const first = resolveAuthSecret(dir, undefined);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveAuthSecret(dir, undefined)).toBe(first);
    expect(resolveAuthSecret(dir, 'configured-secret')).toBe('configured-secret');
  });
});

describe('http', () => {
  let t: TestApp;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = mkdtempSync(path.join(tmpdir(), 'patientsim-web-'));
    mkdirSync(path.join(webRoot, 'assets'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>PatientSim</title>');
    writeFileSync(path.join(webRoot, 'assets', 'app.js'), 'console.log(1)');
    t = await buildTestApp({ webRoot });
  });

  it('answers health and readiness', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready', checks: { database: 'ready' } });
  });

  it('is ready only while the database can read its tables, not merely answer', async () => {
    // A table out of reach, as on an engine that can no longer open its files.
    await t.db.execute(sql`alter table "user" rename to user_out_of_reach`);
    try {
      const ready = await t.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', checks: { database: 'unavailable' } });
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await t.db.execute(sql`alter table user_out_of_reach rename to "user"`);
    }
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('redirects / to /auth/login', async () => {
    const response = await t.app.inject({ url: '/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/auth/login');
  });

  it('serves the web app under /auth with history fallback and immutable assets', async () => {
    for (const url of ['/auth', '/auth/login', '/auth/org/invite/', '/auth/access/organizations/abc']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<title>PatientSim</title>');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    const asset = await t.app.inject({ url: '/auth/assets/app.js' });
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('never serves files outside the web root', async () => {
    const response = await t.app.inject({ url: '/auth/..%2f..%2fpackage.json' });
    expect(response.body).not.toContain('"workspaces"');
  });

  it('sends security headers with a CSP that allows no inline scripts', async () => {
    const response = await t.app.inject({ url: '/auth/login' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("worker-src 'self';");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const response = await t.app.inject({ url: '/api/users/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('serves the OpenAPI document of the /api/users routes', async () => {
    const response = await t.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toContain('/api/users/auth/sign-in');
    expect(paths).toContain('/api/users/extension/users/{userId}/groups');
    expect(paths.some((p) => p.startsWith('/auth/'))).toBe(false);
  });

  it('serves the scenario library as a page of the web app, and a plain page for other authoring paths', async () => {
    // The same answer as any page of the app: its index.html (or, unbuilt, the same 503).
    const cases = await t.app.inject({ url: '/authoring/cases' });
    const login = await t.app.inject({ url: '/auth/login' });
    expect(cases.statusCode).toBe(login.statusCode);
    expect(cases.body).toBe(login.body);
    expect((await t.app.inject({ url: '/authoring/cases.js' })).statusCode).toBe(404);
    const other = await t.app.inject({ url: '/authoring/assignments' });
    expect(other.statusCode).toBe(404);
    expect(other.body).toContain('href="/auth/account/profile"');
    expect(other.body).toContain('/authoring/assignments');
  });
});
