// Runs the browser tests against the production build, on E2E_WORKERS Playwright workers (default
// 2), each with a server of its own: the demo data is seeded once into a throw-away data directory,
// which is then copied for each server, so a spec that changes the demo data changes only its own
// worker's copy. Each server has its own SMTP catcher; they share a local stand-in for the payment
// provider and a fixed integration key. Usage (after `npm run build`):
//   node apps/web/e2e/run.mjs [extra playwright arguments, e.g. login.spec.ts]
//   E2E_WORKERS=1 node apps/web/e2e/run.mjs login.spec.ts   (one spec needs one server)
// Set E2E_KEEP_TMP=1 to keep the data, mail and server log directories for inspection.
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rename, rm, writeFile, copyFile } from 'node:fs/promises';
import { createWriteStream, existsSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const e2eDir = fileURLToPath(new URL('.', import.meta.url));
const serverEntry = path.join(repoRoot, 'apps/server/dist/main.js');
/** Generous: seeding on a busy two-core machine has taken over a minute. */
const READY_TIMEOUT_MS = 180_000;
/** The key integrations present to provision accounts (decision 15); specs read it from E2E_INTEGRATION_KEY. */
const INTEGRATION_KEY = 'e2e-integration-key-0123456789abcdef';
const STRIPE_SECRET_KEY = 'sk_test_e2e';
/**
 * Workers (and servers) when E2E_WORKERS is not set: one a core on this project's two-core
 * machines. With three there, on a machine busy with other work, tests ran out of their timeouts
 * (the measurements are in the e2e README).
 */
const DEFAULT_WORKERS = 2;

// ---------------------------------------------------------------- mail decoding

function splitHeadAndBody(raw) {
  const match = /\r?\n\r?\n/.exec(raw);
  return match ? [raw.slice(0, match.index), raw.slice(match.index + match[0].length)] : [raw, ''];
}

function parseHeaders(head) {
  const headers = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function headerParam(value, name) {
  const match = new RegExp(`${name}="?([^";]+)"?`, 'i').exec(value ?? '');
  return match ? match[1] : null;
}

function decodeQuotedPrintable(text) {
  const bytes = [];
  const source = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '=' && /^[0-9A-F]{2}$/i.test(source.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(source.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(source[i], 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(body, encoding, charset) {
  const kind = (encoding ?? '').toLowerCase();
  const buffer =
    kind === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : kind === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
        : Buffer.from(body, 'utf8');
  return buffer.toString(/^(us-ascii|utf-?8)?$/i.test(charset ?? '') ? 'utf8' : 'latin1');
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=) in a header. */
function decodeWords(value) {
  return (value ?? '').replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_all, _charset, kind, data) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
  );
}

/** The decoded text parts of a MIME entity, multipart or not. */
function collectParts(raw) {
  const [head, body] = splitHeadAndBody(raw);
  const headers = parseHeaders(head);
  const contentType = headers['content-type'] ?? 'text/plain';
  if (/^multipart\//i.test(contentType)) {
    const boundary = headerParam(contentType, 'boundary');
    if (!boundary) return [];
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => collectParts(part.replace(/^\r?\n/, '')));
  }
  return [
    {
      type: contentType.split(';')[0].trim().toLowerCase(),
      content: decodeBody(body, headers['content-transfer-encoding'], headerParam(contentType, 'charset')),
    },
  ];
}

export function decodeMessage(raw) {
  const [head] = splitHeadAndBody(raw);
  const headers = parseHeaders(head);
  const parts = collectParts(raw);
  return {
    from: decodeWords(headers.from),
    to: decodeWords(headers.to),
    subject: decodeWords(headers.subject),
    text: parts
      .filter((part) => part.type === 'text/plain')
      .map((part) => part.content)
      .join('\n'),
    html: parts
      .filter((part) => part.type === 'text/html')
      .map((part) => part.content)
      .join('\n'),
  };
}

// ---------------------------------------------------------------- services

/** Ports handed out by this run: a server binds its port a while after the probe let it go. */
const portsGiven = new Set();

async function freePort() {
  for (;;) {
    const port = await probeFreePort();
    if (!portsGiven.has(port)) {
      portsGiven.add(port);
      return port;
    }
  }
}

function probeFreePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startMailCatcher(mailDir) {
  let count = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    // Plain SMTP on localhost: no TLS upgrade for the sender to trip over.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const id = `${Date.now()}-${String(++count).padStart(4, '0')}`;
        const message = {
          id,
          receivedAt: new Date().toISOString(),
          envelope: { from: session.envelope.mailFrom?.address ?? null, to: session.envelope.rcptTo.map((r) => r.address) },
          ...decodeMessage(raw),
          raw,
        };
        const target = path.join(mailDir, `${id}.json`);
        // Written whole, then renamed: a spec never reads half a message.
        writeFile(`${target}.tmp`, JSON.stringify(message, null, 2))
          .then(() => rename(`${target}.tmp`, target))
          .then(() => callback(), callback);
      });
    },
  });
  await new Promise((resolve, reject) => {
    smtp.on('error', reject);
    smtp.listen(0, '127.0.0.1', resolve);
  });
  return { smtp, port: smtp.server.address().port };
}

/**
 * The payment provider's billing-portal endpoint, as the server's SDK calls it, and the page a
 * portal session leads to. Any customer gets a session.
 */
async function startFakePaymentProvider() {
  const server = createHttpServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk.toString();
    });
    req.on('end', () => {
      const { port } = server.address();
      if (req.method === 'POST' && req.url === '/v1/billing_portal/sessions') {
        const body = new URLSearchParams(raw);
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            id: 'bps_1',
            object: 'billing_portal.session',
            customer: body.get('customer'),
            return_url: body.get('return_url'),
            url: `http://127.0.0.1:${port}/portal-landing`,
          }),
        );
        return;
      }
      if (req.method === 'GET' && req.url === '/portal-landing') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          '<!doctype html><html lang="en"><head><title>Billing portal</title></head><body><h1>Billing portal</h1></body></html>',
        );
        return;
      }
      res.statusCode = 404;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }));
    });
  });
  await new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

async function waitForReady(baseUrl, server) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode} before it was ready.`);
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server was not ready within ${READY_TIMEOUT_MS / 1000} s.`);
}

function stopProcess(child, timeoutMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (error) => {
      console.error(error);
      resolve(1);
    });
  });
}

// ---------------------------------------------------------------- main

function workerCount() {
  const raw = process.env.E2E_WORKERS ?? String(DEFAULT_WORKERS);
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1) throw new Error(`E2E_WORKERS must be a whole number of at least 1, not "${raw}".`);
  return count;
}

/** Starts the built server on `dataDir` (demo seed into an empty database), its output in `logPath`. */
async function startServer({ dataDir, logPath, smtpPort, paymentUrl }) {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const log = createWriteStream(logPath);
  const child = spawn(process.execPath, [serverEntry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SEED: 'demo',
      PUBLIC_URL: baseUrl,
      // The Cases tool lists this deployment as the environment 'dev' (decision 0027).
      CASE_ENVIRONMENT_NAME: 'dev',
      INTEGRATION_KEY,
      STRIPE_SECRET_KEY,
      STRIPE_API_BASE: paymentUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  return { child, baseUrl };
}

/**
 * A data directory with the demo data, made by a server that seeds it and stops: copying it is
 * cheaper than seeding once a server (and seeding peaks at about twice a server's memory).
 */
async function seedTemplate({ dataDir, logPath, smtpPort, paymentUrl }) {
  const server = await startServer({ dataDir, logPath, smtpPort, paymentUrl });
  try {
    await waitForReady(server.baseUrl, server.child);
  } finally {
    await stopProcess(server.child);
  }
  if (server.child.exitCode !== 0) throw new Error(`The seeding server exited with code ${server.child.exitCode}.`);
}

async function main() {
  if (!existsSync(serverEntry)) {
    console.error(`${path.relative(repoRoot, serverEntry)} is missing: run \`npm run build\` first.`);
    return 1;
  }
  let workers;
  try {
    workers = workerCount();
  } catch (error) {
    console.error(`e2e: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const workDir = await mkdtemp(path.join(tmpdir(), 'patientsim-e2e-'));
  const templateDir = path.join(workDir, 'seeded');
  const logPaths = [path.join(workDir, 'seed.log')];

  const servers = [];
  const catchers = [];
  let payment = null;
  let exitCode = 1;
  try {
    payment = await startFakePaymentProvider();
    for (let index = 0; index < workers; index++) {
      const mailDir = path.join(workDir, `mail-${index}`);
      await mkdir(mailDir, { recursive: true });
      catchers.push({ ...(await startMailCatcher(mailDir)), mailDir });
    }

    const seedStarted = performance.now();
    await seedTemplate({ dataDir: templateDir, logPath: logPaths[0], smtpPort: catchers[0].port, paymentUrl: payment.url });
    const seedMs = Math.round(performance.now() - seedStarted);

    const startStarted = performance.now();
    for (let index = 0; index < workers; index++) {
      const dataDir = path.join(workDir, `data-${index}`);
      // The lock is gone with the seeding server; a copy never carries one.
      await cp(templateDir, dataDir, { recursive: true, filter: (source) => path.basename(source) !== 'server.lock' });
      const logPath = path.join(workDir, `server-${index}.log`);
      logPaths.push(logPath);
      servers.push(await startServer({ dataDir, logPath, smtpPort: catchers[index].port, paymentUrl: payment.url }));
    }
    await Promise.all(servers.map((server) => waitForReady(server.baseUrl, server.child)));
    const startMs = Math.round(performance.now() - startStarted);

    console.info(
      `e2e: ${workers} worker(s); demo data seeded in ${seedMs} ms, servers ready in ${startMs} ms on ${servers
        .map((server) => server.baseUrl)
        .join(', ')}; payment provider on ${payment.url}; work dir ${workDir}`,
    );

    exitCode = await run(
      'npx',
      ['playwright', 'test', '-c', path.join(e2eDir, 'playwright.config.ts'), ...process.argv.slice(2)],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          // Worker i (its parallel index) uses server i and its mail (see support/servers.ts).
          E2E_SERVERS: JSON.stringify(
            servers.map((server, index) => ({ baseUrl: server.baseUrl, mailDir: catchers[index].mailDir })),
          ),
          E2E_INTEGRATION_KEY: INTEGRATION_KEY,
          E2E_PAYMENT_PROVIDER_URL: payment.url,
          PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
        },
      },
    );
  } catch (error) {
    console.error(`e2e: ${error instanceof Error ? error.message : String(error)}`);
    exitCode = 1;
  } finally {
    await Promise.all(servers.map((server) => stopProcess(server.child)));
    await Promise.all(catchers.map(({ smtp }) => new Promise((resolve) => smtp.close(resolve))));
    await new Promise((resolve) => {
      if (!payment) return resolve();
      payment.server.closeAllConnections();
      payment.server.close(resolve);
    });
    if (exitCode !== 0) {
      const keptDir = path.join(e2eDir, 'test-results');
      await mkdir(keptDir, { recursive: true });
      const kept = [];
      for (const logPath of logPaths.filter((file) => existsSync(file))) {
        const target = path.join(keptDir, path.basename(logPath));
        await copyFile(logPath, target);
        kept.push(path.relative(repoRoot, target));
      }
      if (kept.length > 0) console.error(`e2e: the server logs are in ${kept.join(', ')}`);
    }
    if (process.env.E2E_KEEP_TMP) console.info(`e2e: kept ${workDir}`);
    // A server stopped before it was ready may leave its preparation process writing a moment longer.
    else await rm(workDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
  return exitCode;
}

process.exitCode = await main();
