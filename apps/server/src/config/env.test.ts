import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from './env.js';

describe('TRUSTED_PROXIES', () => {
  it('takes comma-separated addresses and CIDR ranges, and is empty when unset', () => {
    expect(loadEnv({ TRUSTED_PROXIES: ' 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8' }).TRUSTED_PROXIES).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
    expect(loadEnv({}).TRUSTED_PROXIES).toEqual([]);
  });

  it.each(['proxy.internal', 'loopback', '300.1.1.1', '10.0.0.0/33', '::1/129', '10.0.0.1/', '10.0.0.0/8/8', '10.0.0.1, *'])(
    'stops the start on %j with the other problems',
    (value) => {
      let error: unknown;
      try {
        loadEnv({ TRUSTED_PROXIES: value, PORT: 'eighty' });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems.some((problem) => problem.startsWith('TRUSTED_PROXIES:'))).toBe(true);
      expect(problems.some((problem) => problem.startsWith('PORT:'))).toBe(true);
    },
  );
});

describe('production configuration', () => {
  const SECRET = 'x'.repeat(32);

  it('requires SMTP_URL: reset links must never go to the log', () => {
    let error: unknown;
    try {
      loadEnv({ NODE_ENV: 'production', AUTH_SECRET: SECRET });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(['SMTP_URL: is required when NODE_ENV=production']);
    const env = loadEnv({ NODE_ENV: 'production', AUTH_SECRET: SECRET, SMTP_URL: 'smtp://mail.example:587' });
    expect(env.SMTP_URL).toBe('smtp://mail.example:587');
  });

  it('lists a missing SMTP_URL next to a missing AUTH_SECRET', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET[\s\S]*SMTP_URL/);
  });

  it('keeps the development outbox outside production', () => {
    expect(loadEnv({ NODE_ENV: 'development' }).SMTP_URL).toBeUndefined();
    expect(loadEnv({ NODE_ENV: 'test' }).SMTP_URL).toBeUndefined();
  });
});

describe('CASE_ACCESS_CODE and CASE_ENVIRONMENTS (decision 17)', () => {
  it('are optional, and parse the peers as JSON', () => {
    const env = loadEnv({});
    expect(env.CASE_ACCESS_CODE).toBeUndefined();
    expect(env.CASE_ENVIRONMENTS).toEqual({});
    const peers = { stable: { url: 'https://stable.example.test', accessCode: 'stable-access-code-123' } };
    const configured = loadEnv({ CASE_ACCESS_CODE: 'this-deployment-code', CASE_ENVIRONMENTS: JSON.stringify(peers) });
    expect(configured.CASE_ACCESS_CODE).toBe('this-deployment-code');
    expect(configured.CASE_ENVIRONMENTS).toEqual(peers);
  });

  it("name this deployment 'dev' unless CASE_ENVIRONMENT_NAME says otherwise", () => {
    expect(loadEnv({}).CASE_ENVIRONMENT_NAME).toBe('dev');
    expect(loadEnv({ CASE_ENVIRONMENT_NAME: 'stable' }).CASE_ENVIRONMENT_NAME).toBe('stable');
    expect(() => loadEnv({ CASE_ENVIRONMENT_NAME: 'production' })).toThrow(ConfigError);
  });

  it.each([
    ['CASE_ACCESS_CODE', 'short'],
    ['CASE_ENVIRONMENTS', 'not json'],
    ['CASE_ENVIRONMENTS', JSON.stringify({ prod: { url: 'https://x.test', accessCode: 'a-long-enough-code' } })],
    ['CASE_ENVIRONMENTS', JSON.stringify({ dev: { url: 'not a url', accessCode: 'a-long-enough-code' } })],
    ['CASE_ENVIRONMENTS', JSON.stringify({ dev: { url: 'https://x.test', accessCode: 'short' } })],
  ])('stops the start on a bad %s', (name, value) => {
    expect(() => loadEnv({ [name]: value })).toThrow(ConfigError);
  });
});

describe('API_INTROSPECTION (decision 0034)', () => {
  const PRODUCTION = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), SMTP_URL: 'smtp://mail.example:587' };

  it('is off by default in production and on elsewhere', () => {
    expect(loadEnv(PRODUCTION).API_INTROSPECTION).toBe(false);
    expect(loadEnv({ NODE_ENV: 'development' }).API_INTROSPECTION).toBe(true);
    expect(loadEnv({ NODE_ENV: 'test' }).API_INTROSPECTION).toBe(true);
  });

  it('follows on and off wherever it is set', () => {
    expect(loadEnv({ ...PRODUCTION, API_INTROSPECTION: 'on' }).API_INTROSPECTION).toBe(true);
    expect(loadEnv({ NODE_ENV: 'development', API_INTROSPECTION: 'off' }).API_INTROSPECTION).toBe(false);
  });

  it('stops the start on another value, with the other problems', () => {
    let error: unknown;
    try {
      loadEnv({ API_INTROSPECTION: 'yes', PORT: 'eighty' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.some((problem) => problem.startsWith('API_INTROSPECTION:'))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('PORT:'))).toBe(true);
  });
});

describe('SUPPORT_EMAIL', () => {
  it('is the address of MAIL_FROM when unset, and must be an address when set', () => {
    expect(loadEnv({}).SUPPORT_EMAIL).toBe('no-reply@localhost');
    expect(loadEnv({ MAIL_FROM: 'Academy Help <help@academy.example>' }).SUPPORT_EMAIL).toBe('help@academy.example');
    expect(loadEnv({ SUPPORT_EMAIL: 'support@provider.example' }).SUPPORT_EMAIL).toBe('support@provider.example');
    expect(() => loadEnv({ SUPPORT_EMAIL: 'not an address' })).toThrow(/SUPPORT_EMAIL/);
  });
});
