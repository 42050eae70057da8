import { beforeAll, describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_TEXT, PASSWORD_POLICY_TEXT } from '@patientsim/domain/auth/password-policy';
import { buildTestApp, type TestApp } from '../../test/build-app.js';
import { createClient } from '../../test/client.js';
import { insertUser } from '../../test/fixtures.js';
import { AppError } from '../lib/errors.js';
import { DEMO_PASSWORD } from '../seed/demo.js';
import { assertStrongPassword } from './password.js';

function refusal(password: string): AppError | null {
  try {
    assertStrongPassword(password);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe('assertStrongPassword', () => {
  it('refuses common passwords that meet the composition rules, whatever their case', () => {
    for (const password of ['Password1', 'Password123', 'Qwerty123', 'PASSword1', 'Iloveyou1', 'Password2026', '2026Password']) {
      const error = refusal(password);
      expect(error?.code, password).toBe('invalid_password');
      expect(error?.message).toBe(`Password is too weak. ${PASSWORD_POLICY_TEXT} ${COMMON_PASSWORD_TEXT}`);
    }
  });

  it('keeps the policy answer for passwords outside the composition rules', () => {
    const error = refusal('password');
    expect(error?.code).toBe('invalid_password');
    expect(error?.message).toBe(`Password is too weak. ${PASSWORD_POLICY_TEXT}`);
  });

  it('accepts the demo and test passwords and other uncommon ones', () => {
    for (const password of [DEMO_PASSWORD, 'Sim-Demo-2026', 'Test-Pass-2026', 'Fresh-Pass-2027', 'Aa1aaaaa', 'Xk7mQ2pLz9']) {
      expect(refusal(password), password).toBeNull();
    }
  });
});

describe('POST /account/change-password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });

  it('refuses a common password with invalid_password and keeps the old one', async () => {
    const user = await insertUser(t.db);
    const client = createClient(t.app);
    expect((await client.post('/api/users/auth/sign-in', { email: user.email, password: user.password })).statusCode).toBe(200);
    client.setBearer((await client.post('/api/users/auth/token')).json().idToken);
    const response = await client.post('/api/users/account/change-password', {
      oldPassword: user.password,
      newPassword: 'Password123',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      code: 'invalid_password',
      message: `Password is too weak. ${PASSWORD_POLICY_TEXT} ${COMMON_PASSWORD_TEXT}`,
      details: { reason: 'common' },
    });
    const again = createClient(t.app, { ip: '10.31.0.1' });
    expect((await again.post('/api/users/auth/sign-in', { email: user.email, password: user.password })).statusCode).toBe(200);
  });
});
