/**
 * Section 1, the second factor (decision 0066): sign-ins per second with an authenticator app
 * (the password's step, then a code from otplib) beside password-only sign-ins, measured by the
 * same client loop in the same run, so their ratio compares the flows and not the clients.
 */
import { generateSync } from 'otplib';
import { cookieHeader } from '../lib/http.js';
import { percentile } from '../lib/stats.js';

type Account = { email: string; password: string };

export type SignInLoopFigures = {
  /** Completed sign-ins (every request of the flow answered 200). */
  signIns: number;
  failures: number;
  seconds: number;
  perSecond: number;
  /** Requests one sign-in takes. */
  requestsPerSignIn: number;
  /** Latency of a whole sign-in (all its requests). */
  p50Ms: number;
  p99Ms: number;
};

const code = (totpUri: string) => {
  const secret = new URL(totpUri).searchParams.get('secret');
  if (!secret) throw new Error('no secret in the otpauth URI');
  return generateSync({ secret });
};

async function post(baseUrl: string, path: string, body: unknown, cookie: string) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/**
 * Sets up an authenticator app for `account` through the product's routes (its session cookie)
 * and returns the app's otpauth URI.
 */
export async function enrolTotp(baseUrl: string, account: Account): Promise<string> {
  const signedIn = await post(baseUrl, '/api/users/auth/sign-in', account, '');
  if (!signedIn.ok) throw new Error(`sign-in of ${account.email} answered ${signedIn.status}`);
  const cookie = cookieHeader(signedIn.headers.getSetCookie());
  const started = await post(baseUrl, '/api/users/account/two-factor/totp', { password: account.password }, cookie);
  if (!started.ok) throw new Error(`POST /account/two-factor/totp answered ${started.status}: ${await started.text()}`);
  const { totpUri } = (await started.json()) as { totpUri: string };
  const verified = await post(baseUrl, '/api/users/account/two-factor/totp/verify', { code: code(totpUri) }, cookie);
  if (!verified.ok) throw new Error(`POST /account/two-factor/totp/verify answered ${verified.status}: ${await verified.text()}`);
  return totpUri;
}

/** One sign-in of `account`, from a browser holding `device` (its device cookie): true when it signed in. */
async function signInOnce(
  baseUrl: string,
  account: Account,
  totpUri: string | null,
  device: string,
): Promise<{ ok: boolean; cookies: string[] }> {
  const first = await post(baseUrl, '/api/users/auth/sign-in', account, device);
  if (!first.ok) {
    await first.body?.cancel();
    return { ok: false, cookies: [] };
  }
  const answer = (await first.json()) as { secondFactor?: unknown };
  if (!totpUri) return { ok: answer.secondFactor === undefined, cookies: first.headers.getSetCookie() };
  if (answer.secondFactor === undefined) return { ok: false, cookies: [] };
  const pending = [device, cookieHeader(first.headers.getSetCookie())].filter(Boolean).join('; ');
  const second = await post(baseUrl, '/api/users/auth/sign-in/two-factor', { kind: 'totp', code: code(totpUri) }, pending);
  const cookies = second.headers.getSetCookie();
  await second.body?.cancel();
  return { ok: second.ok, cookies };
}

/**
 * Signs `account` in over and over from `connections` browsers at once for `seconds` (after a
 * warm-up of `warmupSeconds`), with its app's codes when `totpUri` is given. Each browser first
 * signs in once to get the device cookie the account then knows it by, as a person's browser does:
 * the limits count a known browser's attempts apart from other browsers' (decision 0039).
 */
export async function measureSignInLoop({
  baseUrl,
  account,
  totpUri,
  connections,
  seconds,
  warmupSeconds,
}: {
  baseUrl: string;
  account: Account;
  totpUri: string | null;
  connections: number;
  seconds: number;
  warmupSeconds: number;
}): Promise<SignInLoopFigures> {
  const devices: string[] = [];
  for (let browser = 0; browser < connections; browser += 1) {
    const { ok, cookies } = await signInOnce(baseUrl, account, totpUri, '');
    if (!ok) throw new Error(`the first sign-in of ${account.email} failed`);
    devices.push(cookieHeader(cookies.filter((line) => line.includes('.device.'))));
  }
  const loop = async (durationSeconds: number) => {
    const deadline = performance.now() + durationSeconds * 1000;
    const latencies: number[] = [];
    let failures = 0;
    await Promise.all(
      devices.map(async (device) => {
        while (performance.now() < deadline) {
          const started = performance.now();
          const { ok } = await signInOnce(baseUrl, account, totpUri, device);
          if (ok) latencies.push(performance.now() - started);
          else failures += 1;
        }
      }),
    );
    return { latencies, failures };
  };
  if (warmupSeconds > 0) await loop(warmupSeconds);
  const startedAt = performance.now();
  const { latencies, failures } = await loop(seconds);
  const elapsed = (performance.now() - startedAt) / 1000;
  return {
    signIns: latencies.length,
    failures,
    seconds: elapsed,
    perSecond: latencies.length / elapsed,
    requestsPerSignIn: totpUri ? 2 : 1,
    p50Ms: latencies.length > 0 ? percentile(latencies, 50) : 0,
    p99Ms: latencies.length > 0 ? percentile(latencies, 99) : 0,
  };
}
