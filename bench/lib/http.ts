/** The few single calls the benchmarks need before they load an endpoint. */

export const DEMO_ACCOUNT = { email: 'owner@demo.test', password: 'Sim-Demo-2026' } as const;
/** The demo seed's other admin of Riverside EMS Academy (not its key owner). */
export const DEMO_ADMIN = { email: 'admin@demo.test', password: 'Sim-Demo-2026' } as const;
/** The demo seed's super admin: the provider, who may search every user. */
export const DEMO_SUPER_ADMIN = { email: 'super@demo.test', password: 'Sim-Demo-2026' } as const;

export type SignedIn = { userId: string; cookie: string };
export type IdToken = { idToken: string; sub: string; exp: number };

async function failure(response: Response, what: string): Promise<Error> {
  const body = await response.text().catch(() => '');
  return new Error(`${what} answered ${response.status}: ${body.slice(0, 300)}`);
}

/** `name=value` pairs of every Set-Cookie header, ready for a Cookie header. */
export function cookieHeader(setCookies: readonly string[]): string {
  return setCookies
    .map((line) => line.split(';', 1)[0]!.trim())
    .filter((pair) => pair.includes('=') && !pair.endsWith('='))
    .join('; ');
}

export async function signIn(baseUrl: string, account: { email: string; password: string } = DEMO_ACCOUNT): Promise<SignedIn> {
  const response = await fetch(`${baseUrl}/api/users/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (!response.ok) throw await failure(response, 'POST /api/users/auth/sign-in');
  const body = (await response.json()) as { user?: { id?: string } };
  const cookie = cookieHeader(response.headers.getSetCookie());
  if (!body.user?.id) throw new Error('the sign-in answer has no user.id');
  if (!cookie) throw new Error('the sign-in answer set no cookie');
  return { userId: body.user.id, cookie };
}

export async function issueToken(baseUrl: string, cookie: string): Promise<IdToken> {
  const response = await fetch(`${baseUrl}/api/users/auth/token`, { method: 'POST', headers: { cookie } });
  if (!response.ok) throw await failure(response, 'POST /api/users/auth/token');
  const body = (await response.json()) as { idToken?: string; idTokenPayload?: { sub?: string; exp?: number } };
  if (!body.idToken || !body.idTokenPayload?.sub) throw new Error('the token answer has no idToken / idTokenPayload.sub');
  return { idToken: body.idToken, sub: body.idTokenPayload.sub, exp: body.idTokenPayload.exp ?? 0 };
}

/** One GET that must answer 200; returns the parsed body. */
export async function getOk(url: string, headers: Record<string, string>): Promise<unknown> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw await failure(response, `GET ${new URL(url).pathname}`);
  return response.json();
}

/** Signs `account` in and returns the Authorization header of its ID token. */
export async function bearerHeaders(
  baseUrl: string,
  account: { email: string; password: string },
): Promise<{ authorization: string }> {
  const session = await signIn(baseUrl, account);
  const token = await issueToken(baseUrl, session.cookie);
  return { authorization: `Bearer ${token.idToken}` };
}

/** One GET whatever it answers: the status and the parsed body (null when it is not JSON). */
export async function getAny(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: null };
  }
}

/** One POST of a JSON body that must answer 200; returns the parsed body. */
export async function postOk(url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response, `POST ${new URL(url).pathname}`);
  return response.json();
}
