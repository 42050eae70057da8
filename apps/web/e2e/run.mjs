// Runs the browser tests against the production build: a throw-away data directory, a local
// SMTP catcher, a local stand-in for the payment provider, the real server with the demo seed and
// a fixed integration key, then Playwright. Usage (after `npm run build`):
//   node apps/web/e2e/run.mjs [extra playwright arguments, e.g. login.spec.ts]
// Set E2E_KEEP_TMP=1 to keep the data, mail and server log directories for inspection.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, writeFile, copyFile } from 'node:fs/promises';
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
const READY_TIMEOUT_MS = 90_000;
/** The key integrations present to provision accounts (decision 15); specs read it from E2E_INTEGRATION_KEY. */
const INTEGRATION_KEY = 'e2e-integration-key-0123456789abcdef';
const STRIPE_SECRET_KEY = 'sk_test_e2e';

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

function freePort() {
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

async function main() {
  if (!existsSync(serverEntry)) {
    console.error(`${path.relative(repoRoot, serverEntry)} is missing: run \`npm run build\` first.`);
    return 1;
  }
  const workDir = await mkdtemp(path.join(tmpdir(), 'patientsim-e2e-'));
  const dataDir = path.join(workDir, 'data');
  const mailDir = path.join(workDir, 'mail');
  const serverLogPath = path.join(workDir, 'server.log');
  await mkdir(dataDir, { recursive: true });
  await mkdir(mailDir, { recursive: true });

  let server = null;
  let smtp = null;
  let payment = null;
  let exitCode = 1;
  try {
    const mail = await startMailCatcher(mailDir);
    smtp = mail.smtp;
    payment = await startFakePaymentProvider();
    const port = await freePort();
    const baseUrl = `http://localhost:${port}`;
    const serverLog = createWriteStream(serverLogPath);
    server = spawn(process.execPath, [serverEntry], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
        SEED: 'demo',
        PUBLIC_URL: baseUrl,
        // The Cases tool lists this deployment as the environment 'dev' (decision 0027).
        CASE_ENVIRONMENT_NAME: 'dev',
        INTEGRATION_KEY,
        STRIPE_SECRET_KEY,
        STRIPE_API_BASE: payment.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout.pipe(serverLog);
    server.stderr.pipe(serverLog);

    console.info(
      `e2e: server on ${baseUrl}, SMTP catcher on port ${mail.port}, payment provider on ${payment.url}, work dir ${workDir}`,
    );
    await waitForReady(baseUrl, server);

    exitCode = await run(
      'npx',
      ['playwright', 'test', '-c', path.join(e2eDir, 'playwright.config.ts'), ...process.argv.slice(2)],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          E2E_BASE_URL: baseUrl,
          E2E_MAIL_DIR: mailDir,
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
    await stopProcess(server);
    await new Promise((resolve) => (smtp ? smtp.close(resolve) : resolve()));
    await new Promise((resolve) => {
      if (!payment) return resolve();
      payment.server.closeAllConnections();
      payment.server.close(resolve);
    });
    if (exitCode !== 0 && existsSync(serverLogPath)) {
      const kept = path.join(e2eDir, 'test-results', 'server.log');
      await mkdir(path.dirname(kept), { recursive: true });
      await copyFile(serverLogPath, kept);
      console.error(`e2e: the server log is in ${path.relative(repoRoot, kept)}`);
    }
    if (process.env.E2E_KEEP_TMP) console.info(`e2e: kept ${workDir}`);
    else await rm(workDir, { recursive: true, force: true });
  }
  return exitCode;
}

process.exitCode = await main();
