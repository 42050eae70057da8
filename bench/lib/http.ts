/** The few single calls the benchmarks need before they load an endpoint. */

export const DEMO_ACCOUNT = { email: 'owner@demo.test', password: 'Sim-Demo-2026' } as const;

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
