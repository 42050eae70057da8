import { beforeAll, describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_TEXT, PASSWORD_POLICY_TEXT } from '@patientsim/domain/auth/password-policy';
import { buildTestApp, type TestApp } from '../../test/build-app.js';
import { createClient } from '../../test/client.js';
import { insertUser } from '../../test/fixtures.js';
import { AppError } from '../lib/errors.js';
import { DEMO_PASSWORD } from '../seed/demo.js';
import { assertStrongPassword } from './password.js';

function refusal(password: string, person?: Parameters<typeof assertStrongPassword>[1]): AppError | null {
  try {
    assertStrongPassword(password, person);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

const GUESSABLE = `Password is too weak. ${PASSWORD_POLICY_TEXT} ${COMMON_PASSWORD_TEXT}`;

describe('assertStrongPassword', () => {
  it('refuses common passwords that meet the composition rules, whatever their case', () => {
    for (const password of ['Password1', 'Password123', 'Qwerty123', 'PASSword1', 'Iloveyou1', 'Password2026', '2026Password']) {
      const error = refusal(password);
      expect(error?.code, password).toBe('invalid_password');
      expect(error?.message).toBe(GUESSABLE);
    }
  });

  it('refuses common passwords dressed up with a symbol or a year, and the product’s own name', () => {
    for (const password of ['Password1!', 'Password123!', 'Summer2026!', 'Patientsim1', 'PatientSim2026', 'P@ssw0rd2026']) {
      const error = refusal(password);
      expect(error?.code, password).toBe('invalid_password');
      expect(error?.message, password).toBe(GUESSABLE);
      expect(error?.details).toEqual({ reason: 'common' });
    }
  });

  it('refuses a password made of the person’s own address or names', () => {
    const person = { email: 'quillon.vantrees@example.test', givenName: 'Quillon', familyName: 'Vantrees' };
    for (const password of ['Vantrees2026!', 'Quillon2026!']) {
      expect(refusal(password), password).toBeNull();
      expect(refusal(password, person)?.message, password).toBe(GUESSABLE);
    }
  });

  it('keeps the policy answer for passwords outside the composition rules', () => {
    const error = refusal('password');
    expect(error?.code).toBe('invalid_password');
    expect(error?.message).toBe(`Password is too weak. ${PASSWORD_POLICY_TEXT}`);
  });

  it('accepts the demo password and every password the tests and browser tests set', () => {
    const used = [
      DEMO_PASSWORD,
      'Sim-Demo-2026',
      'Test-Pass-2026',
      'Fresh-Pass-2026',
      'Fresh-Pass-2027',
      'Brand-New-Pass-9',
      'Brand-New-2026',
      'Another-Pass-9',
      'Strong-Pass-1',
      'Strong-Pass-2',
      'Register-Pass-2026',
      'Reset-Pass-2026',
      'Reset-Pass-2027',
      'Chosen-Pass-2026',
      'Changed-Pass-2026',
      'Recovered-Pass-2026',
      'Real-Invitee-2026',
      'Invited-Pass-2026',
      'New-Pass-2026',
      'New-Pass-2027',
      'Not-The-Old-1',
      'Loop-Pass-2026',
      'No-Token-Pass-2026',
      'Xk7mQ2pLz9',
    ];
    for (const password of used) expect(refusal(password, { email: 'someone@example.test' }), password).toBeNull();
  });

  it('judges a long password by its beginning (the estimate of the whole would take too long)', () => {
    expect(refusal(`${'Password1'.repeat(7)}${'Xk7mQ2pLz9'.repeat(5)}`)?.message).toBe(GUESSABLE);
    expect(refusal(`${'Xk7mQ2pLz9'.repeat(11)}Password1`)).toBeNull();
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
