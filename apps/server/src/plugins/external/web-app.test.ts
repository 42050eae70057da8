import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webApp from './web-app.js';

const script = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const indexHtml = `<!doctype html><html lang="en"><title>PatientSim</title><body>${'<p>PatientSim</p>'.repeat(100)}</body></html>`;
/** A page the build prerendered: index.html with the page's HTML. */
const signupHtml = indexHtml.replace('<body>', '<body><div id="root" data-prerendered><h1>Sign up</h1></div>');

describe('web app files', () => {
  let root: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'patientsim-web-'));
    mkdirSync(path.join(root, 'assets'));
    // What the web build writes: each text file with its brotli and gzip copies.
    mkdirSync(path.join(root, 'pages'));
    for (const [file, text] of [
      ['index.html', indexHtml],
      ['pages/signup.html', signupHtml],
      ['assets/main-abc123.js', script],
    ] as const) {
      writeFileSync(path.join(root, file), text);
      writeFileSync(path.join(root, `${file}.br`), zlib.brotliCompressSync(text));
      writeFileSync(path.join(root, `${file}.gz`), zlib.gzipSync(text));
    }
    // A file too small to be worth compressing has no copies.
    writeFileSync(path.join(root, 'assets', 'tiny-def456.js'), 'export {};\n');
    app = Fastify();
    await app.register(webApp, { root });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('sends the brotli copy of a script to a browser that accepts brotli', async () => {
    const response = await get('/auth/assets/main-abc123.js', 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toContain('immutable');
    expect(response.rawPayload.length).toBeLessThan(Buffer.byteLength(script) / 10);
    expect(zlib.brotliDecompressSync(response.rawPayload).toString('utf8')).toBe(script);
  });

  it('sends the gzip copy when brotli is not accepted', async () => {
    const response = await get('/auth/assets/main-abc123.js', 'gzip, deflate');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(response.rawPayload).toString('utf8')).toBe(script);
  });

  it('sends the file as it is when no compression is accepted', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const response = await get('/auth/assets/main-abc123.js', acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.body).toBe(script);
    }
  });

  it('sends a file without compressed copies as it is', async () => {
    const response = await get('/auth/assets/tiny-def456.js', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('export {};\n');
  });

  it('compresses the page of every app route (history fallback) and keeps it uncached', async () => {
    for (const url of ['/auth', '/auth/login', '/auth/account/profile', '/authoring/cases']) {
      const response = await get(url, 'br');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(zlib.brotliDecompressSync(response.rawPayload).toString('utf8'), url).toBe(indexHtml);
    }
  });

  it('sends the prerendered copy of a page for its path without a query', async () => {
    const response = await get('/auth/signup', 'br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(response.rawPayload).toString('utf8')).toBe(signupHtml);
    // With a query (which may change what the page shows), other paths, and the copy's own path: index.html.
    for (const url of ['/auth/signup?email=a%40b.test', '/auth/login', '/auth/signup/other', '/auth/pages/signup']) {
      const response = await get(url, 'br');
      expect(zlib.brotliDecompressSync(response.rawPayload).toString('utf8'), url).toBe(indexHtml);
    }
  });

  it('answers a path out of the app root with the app page, never a file from outside', async () => {
    const response = await get('/auth/..%2f..%2fpackage.json', 'br');
    expect(response.statusCode).toBe(200);
    expect(zlib.brotliDecompressSync(response.rawPayload).toString('utf8')).toBe(indexHtml);
  });
});
