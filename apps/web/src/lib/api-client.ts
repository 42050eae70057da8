import type { ZodType } from 'zod';
import { clearStoredSessionOf, storedIdToken } from './session-storage';

/** The one error every API call throws: the server's `{ statusCode, code, message, details }`. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly details: unknown;
  /** Seconds from a Retry-After header (rate limiting), when the server sent one. */
  readonly retryAfterSeconds: number | null;
  /** True when the message is the reply's own, false when the client made it up. */
  readonly hasReplyMessage: boolean;

  constructor(options: {
    statusCode: number;
    code: string;
    message: string;
    details?: unknown;
    retryAfterSeconds?: number | null;
    hasReplyMessage?: boolean;
  }) {
    super(options.message);
    this.name = 'ApiError';
    this.statusCode = options.statusCode;
    this.code = options.code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.hasReplyMessage = options.hasReplyMessage ?? false;
  }
}

/** Codes the client itself produces when the server gave no usable answer. */
export const CLIENT_ERROR_CODES = {
  network: 'NETWORK_ERROR',
  unknown: 'UNKNOWN_ERROR',
  invalidResponse: 'INVALID_RESPONSE',
} as const;

export const UNKNOWN_ERROR_MESSAGE = 'An unknown error occurred.';

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type QueryValue = string | number | boolean | null | undefined;

export type ApiRequest<T> = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  /**
   * The bearer, sent as `Authorization: Bearer <token>`: by default the signed-in person's stored ID
   * token (none when signed out). Given only for another credential: an invitation token, a View-As
   * token being ended, a token just issued and not yet stored.
   */
  token?: string;
  /** Validates (and types) the answer. */
  schema?: ZodType<T>;
  signal?: AbortSignal;
};

function buildUrl(path: string, query: Record<string, QueryValue> | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

type ErrorBodyShape = { statusCode?: unknown; code?: unknown; message?: unknown; error?: unknown; details?: unknown };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseRetryAfter(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The first error of a GraphQL answer (`{ data, errors: [{ message, extensions: { code, statusCode } }] }`,
 * the case API) as an ApiError, or null when the body is not one.
 */
export function graphqlBodyError(body: unknown, status: number): ApiError | null {
  if (!isRecord(body) || !Array.isArray(body.errors)) return null;
  const first: unknown = body.errors[0];
  if (!isRecord(first) || typeof first.message !== 'string' || !first.message) return null;
  const extensions = isRecord(first.extensions) ? first.extensions : {};
  return new ApiError({
    statusCode: typeof extensions.statusCode === 'number' ? extensions.statusCode : status,
    code: typeof extensions.code === 'string' ? extensions.code : CLIENT_ERROR_CODES.unknown,
    message: first.message,
    details: body.errors,
    hasReplyMessage: true,
  });
}

function toApiError(response: Response, body: unknown): ApiError {
  const retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After'));
  const graphqlError = graphqlBodyError(body, response.status);
  if (graphqlError) return graphqlError;
  if (isRecord(body)) {
    const shape = body as ErrorBodyShape;
    const replyMessage =
      typeof shape.message === 'string' && shape.message
        ? shape.message
        : typeof shape.error === 'string' && shape.error
          ? shape.error
          : null;
    return new ApiError({
      statusCode: typeof shape.statusCode === 'number' ? shape.statusCode : response.status,
      code: typeof shape.code === 'string' ? shape.code : CLIENT_ERROR_CODES.unknown,
      message: replyMessage ?? `${UNKNOWN_ERROR_MESSAGE} Error code ${response.status}`,
      details: shape.details,
      retryAfterSeconds,
      hasReplyMessage: replyMessage !== null,
    });
  }
  return new ApiError({
    statusCode: response.status,
    code: CLIENT_ERROR_CODES.unknown,
    message: `${UNKNOWN_ERROR_MESSAGE} Error code ${response.status}`,
    retryAfterSeconds,
  });
}

async function send(path: string, request: ApiRequest<unknown>, accept: string): Promise<Response> {
  const headers = new Headers({ Accept: accept });
  if (request.body !== undefined) headers.set('Content-Type', 'application/json');
  const bearer = request.token ?? storedIdToken();
  if (bearer) headers.set('Authorization', `Bearer ${bearer}`);

  let response: Response;
  try {
    response = await fetch(buildUrl(path, request.query), {
      method: request.method ?? (request.body === undefined ? 'GET' : 'POST'),
      headers,
      body: request.body === undefined ? null : JSON.stringify(request.body),
      credentials: 'same-origin',
      signal: request.signal ?? null,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({ statusCode: 0, code: CLIENT_ERROR_CODES.network, message: UNKNOWN_ERROR_MESSAGE });
  }
  if (!response.ok) {
    const error = toApiError(response, await readJson(response));
    // The token's session ended (signed out elsewhere, password changed, removed): forget it here
    // if this tab still holds it, and the session poll logs out every tab.
    if (request.token && error.code === 'SESSION_ENDED') clearStoredSessionOf(request.token);
    throw error;
  }
  return response;
}

/**
 * The single fetch wrapper of the app: JSON in and out, same-origin cookies, optional bearer
 * token; throws `ApiError` on any non-ok answer, on a network failure, or on an answer that
 * does not match `schema`.
 */
export async function apiFetch<T = unknown>(path: string, request: ApiRequest<T> = {}): Promise<T> {
  const response = await send(path, request, 'application/json');
  const body = await readJson(response);
  if (!request.schema) return body as T;

  const parsed = request.schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({
      statusCode: response.status,
      code: CLIENT_ERROR_CODES.invalidResponse,
      message: `${UNKNOWN_ERROR_MESSAGE} Error code ${response.status}`,
      details: parsed.error.issues,
    });
  }
  return parsed.data;
}

/** The same wrapper for answers that are files (a CSV download): the body as a Blob. */
export async function apiFetchBlob(path: string, request: Omit<ApiRequest<never>, 'schema'> & { accept: string }): Promise<Blob> {
  const response = await send(path, request, request.accept);
  return response.blob();
}

/**
 * The same wrapper for a streamed answer of JSON lines (application/x-ndjson): each line, parsed,
 * goes to `onLine` as it arrives. A refusal before the stream starts throws `ApiError` as usual.
 */
export async function apiFetchLines(
  path: string,
  request: Omit<ApiRequest<never>, 'schema'>,
  onLine: (line: unknown) => void,
): Promise<void> {
  const response = await send(path, request, 'application/x-ndjson');
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  const flush = (text: string) => {
    if (!text.trim()) return;
    try {
      onLine(JSON.parse(text));
    } catch {
      // A line that is not JSON carries nothing for the caller.
    }
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      flush(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  }
  flush(pending + decoder.decode());
}

/**
 * The reply's own message, else the screen's fallback: for a failed call whose reply said nothing
 * usable (no answer, an HTML error page), or anything that is not an API error (spec section 8).
 */
export function replyMessageOr(error: unknown, fallback: string): string {
  return isApiError(error) && error.hasReplyMessage ? error.message : fallback;
}

/** The text to show for any error: its message, else the fallback (spec section 8). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}
