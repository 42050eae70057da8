import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * Calls the app with `inject`, keeping cookies like a browser does (better-auth sets and clears
 * cookies in one response), and optionally a bearer token.
 */
export function createClient(app: FastifyInstance, { ip = '127.0.0.1' }: { ip?: string } = {}) {
  const jar = new Map<string, string>();
  let bearer: string | null = null;

  const store = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now()) || cookie.value === '';
      if (expired) jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
  };

  const request = async (options: InjectOptions & { url: string }) => {
    const headers: Record<string, string> = { ...(options.headers as Record<string, string> | undefined) };
    if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (bearer && !headers.authorization) headers.authorization = `Bearer ${bearer}`;
    const response = await app.inject({ ...options, headers, remoteAddress: ip });
    store(response);
    return response;
  };

  return {
    request,
    get: (url: string, headers?: Record<string, string>) => request({ method: 'GET', url, ...(headers ? { headers } : {}) }),
    post: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      request({
        method: 'POST',
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
        ...(headers ? { headers } : {}),
      }),
    setBearer: (token: string | null) => {
      bearer = token;
    },
    cookies: jar,
  };
}

export type Client = ReturnType<typeof createClient>;
