import { describe, expect, it } from 'vitest';
import { isDependencyUnavailable } from './errors.js';

describe('isDependencyUnavailable', () => {
  const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

  it('recognises a refused or broken connection, raw or wrapped', () => {
    expect(
      isDependencyUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(isDependencyUnavailable(wrapped(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })))).toBe(true);
  });

  it('recognises PostgreSQL shutting down, starting or losing the connection', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001']) {
      expect(isDependencyUnavailable(wrapped(Object.assign(new Error('database'), { code }))), code).toBe(true);
    }
  });

  it('recognises ioredis giving up on a command while disconnected', () => {
    const gaveUp = Object.assign(new Error('Reached the max retries per request limit (which is 2).'), {
      name: 'MaxRetriesPerRequestError',
    });
    expect(isDependencyUnavailable(gaveUp)).toBe(true);
    expect(isDependencyUnavailable(new Error('Connection is closed.'))).toBe(true);
  });

  it('recognises a Redis command left unanswered or refused while the connection is down', () => {
    for (const message of [
      'Command timed out',
      "Stream isn't writeable and enableOfflineQueue options is false",
      'Command aborted due to connection close',
    ]) {
      expect(isDependencyUnavailable(new Error(message)), message).toBe(true);
    }
  });

  it('leaves every other error alone', () => {
    for (const code of ['23505', '22021', '42P01', '57014', undefined]) {
      expect(isDependencyUnavailable(wrapped(Object.assign(new Error('database'), { code }))), String(code)).toBe(false);
    }
    expect(isDependencyUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDependencyUnavailable(null)).toBe(false);
  });
});
