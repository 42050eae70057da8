import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, requestUrlOf } from '../testing/render';
import { buildLoginResult } from '../testing/factories';
import { ApiError, apiFetch, apiFetchBlob, errorMessage, replyMessageOr } from './api-client';
import { readLoginResult, writeLoginResult } from './session-store';

describe('apiFetch', () => {
  it('sends JSON with the bearer token and returns the validated answer', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);

    await expect(apiFetch('/api/users/x', { method: 'POST', body: { a: 1 }, token: 'abc', schema: OkSchema })).resolves.toEqual({
      ok: true,
    });

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/users/x');
    const headers = new Headers(init.headers);
    expect(headers.get('Authorization')).toBe('Bearer abc');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init.body).toBe('{"a":1}');
    expect(init.credentials).toBe('same-origin');
  });

  it("sends the signed-in person's stored ID token by itself, another bearer when given one, none when signed out", async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    const bearerOf = (index: number) => {
      const [, init] = fetchMock.mock.calls[index] as unknown as [string, RequestInit];
      return new Headers(init.headers).get('Authorization');
    };

    await apiFetch('/api/users/x', { schema: OkSchema });
    const stored = buildLoginResult();
    writeLoginResult(stored);
    await apiFetch('/api/users/x', { schema: OkSchema });
    await apiFetch('/api/users/x', { token: 'invitation-token', schema: OkSchema });

    expect(bearerOf(0)).toBeNull();
    expect(bearerOf(1)).toBe(`Bearer ${stored.idToken}`);
    expect(bearerOf(2)).toBe('Bearer invitation-token');
  });

  it('forgets the stored session when a bearer call says the session ended', async () => {
    const stored = buildLoginResult();
    writeLoginResult(stored);
    const ended = { statusCode: 401, code: 'SESSION_ENDED', message: 'Your session has ended. Please sign in again.' };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ statusCode: 401, code: 'UNAUTHENTICATED', message: 'x' }, 401)),
    );
    await expect(apiFetch('/api/x', { token: stored.idToken })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(readLoginResult()).not.toBeNull();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(ended, 401)),
    );
    await expect(apiFetch('/api/x', { token: stored.idToken })).rejects.toMatchObject({ code: 'SESSION_ENDED' });
    expect(readLoginResult()).toBeNull();
  });

  it('forgets the stored session when a call sent with it says the session ended', async () => {
    writeLoginResult(buildLoginResult());
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ statusCode: 401, code: 'SESSION_ENDED', message: 'x' }, 401)),
    );
    await expect(apiFetch('/api/x')).rejects.toMatchObject({ code: 'SESSION_ENDED' });
    expect(readLoginResult()).toBeNull();
  });

  it('keeps a newer stored session when a call with an older token says its session ended', async () => {
    writeLoginResult(buildLoginResult());
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ statusCode: 401, code: 'SESSION_ENDED', message: 'x' }, 401)),
    );
    await expect(apiFetch('/api/x', { token: 'an.older.token' })).rejects.toMatchObject({ code: 'SESSION_ENDED' });
    expect(readLoginResult()).not.toBeNull();
  });

  it('adds defined query parameters', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({}));
    vi.stubGlobal('fetch', fetchMock);
    await apiFetch('/api/x', { query: { token: 'a b', email: 'x@y.z', skip: undefined } });
    expect(requestUrlOf(fetchMock)).toBe('/api/x?token=a+b&email=x%40y.z');
  });

  it('throws the server error as a typed ApiError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse({ statusCode: 429, code: 'RATE_LIMITED', message: 'Slow down' }, 429, { 'Retry-After': '30' }),
      ),
    );
    const error = await apiFetch('/api/x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', message: 'Slow down', retryAfterSeconds: 30 });
  });

  it('keeps the details of an error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse({ statusCode: 403, code: 'LICENSE_NOT_ACCEPTED', message: 'x', details: { licenseToken: 't' } }, 403),
      ),
    );
    await expect(apiFetch('/api/x')).rejects.toMatchObject({ details: { licenseToken: 't' } });
  });

  it('describes an answer without a JSON body by its status', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    await expect(apiFetch('/api/x')).rejects.toMatchObject({
      statusCode: 502,
      code: 'UNKNOWN_ERROR',
      message: 'An unknown error occurred. Error code 502',
    });
  });

  it('turns a network failure into an ApiError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiFetch('/api/x')).rejects.toMatchObject({ statusCode: 0, code: 'NETWORK_ERROR' });
  });

  it('refuses an answer that does not match the schema', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ ok: 'yes' })),
    );
    await expect(apiFetch('/api/x', { schema: OkSchema })).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });
});

describe('errorMessage', () => {
  it('uses the message, else the fallback', () => {
    expect(errorMessage(new Error('Boom'), 'fallback')).toBe('Boom');
    expect(errorMessage(new Error(''), 'fallback')).toBe('fallback');
    expect(errorMessage(undefined, 'fallback')).toBe('fallback');
  });
});

describe('apiFetchBlob', () => {
  it('answers a file as a Blob, with the bearer token', async () => {
    const fetchMock = vi.fn(async () => new Response('email,plays\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }));
    vi.stubGlobal('fetch', fetchMock);
    const blob = await apiFetchBlob('/api/users/account/scenario-summary', {
      method: 'POST',
      query: { showAllUsers: false },
      token: 'abc',
      accept: 'text/csv',
    });
    expect(await blob.text()).toBe('email,plays\n');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/users/account/scenario-summary?showAllUsers=false');
    expect(new Headers(init.headers).get('Accept')).toBe('text/csv');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer abc');
  });

  it('throws the JSON error of a refused download', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ statusCode: 403, code: 'FORBIDDEN', message: 'No.' }, 403)),
    );
    await expect(apiFetchBlob('/api/x', { accept: 'text/csv' })).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'No.' });
  });
});

describe('replyMessageOr', () => {
  it("uses the reply's own message, else the screen's fallback", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ statusCode: 409, code: 'EMAIL_TAKEN', message: 'Taken.' }, 409)),
    );
    const withMessage = await apiFetch('/api/x').catch((caught: unknown) => caught);
    expect(replyMessageOr(withMessage, 'Fallback')).toBe('Taken.');

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    const withoutMessage = await apiFetch('/api/x').catch((caught: unknown) => caught);
    expect(withoutMessage).toMatchObject({ message: 'An unknown error occurred. Error code 502' });
    expect(replyMessageOr(withoutMessage, 'Fallback')).toBe('Fallback');
    expect(replyMessageOr(new Error('boom'), 'Fallback')).toBe('Fallback');
  });
});
