import { describe, expect, it } from 'vitest';
import { SignInBodySchema, SignUpBodySchema } from './auth.schemas.js';
import { isStrongPassword } from './password-policy.js';

describe('password policy', () => {
  it('needs 8 characters with lower case, upper case and digits', () => {
    expect(isStrongPassword('Abcdefg1')).toBe(true);
    expect(isStrongPassword('Abcdef1')).toBe(false);
    expect(isStrongPassword('abcdefg1')).toBe(false);
    expect(isStrongPassword('ABCDEFG1')).toBe(false);
    expect(isStrongPassword('Abcdefgh')).toBe(false);
  });
});

describe('sign-in and sign-up input', () => {
  it('trims and lowercases e-mail addresses', () => {
    expect(SignInBodySchema.parse({ email: '  Pat@Example.TEST ', password: 'x' }).email).toBe('pat@example.test');
  });

  it("answers 'Must specify a password.' for an empty password", () => {
    const result = SignInBodySchema.safeParse({ email: 'pat@example.test', password: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Must specify a password.');
  });

  it('refuses an invalid e-mail with the spec text', () => {
    const result = SignInBodySchema.safeParse({ email: 'pat@', password: 'x' });
    expect(result.error?.issues[0]?.message).toBe('Invalid email address');
  });

  it('trims names on sign-up and requires them', () => {
    const parsed = SignUpBodySchema.parse({
      token: 'x'.repeat(20),
      email: 'a@b.test',
      given_name: ' Pat ',
      family_name: ' Lee ',
      password: 'Abcdefg1',
    });
    expect(parsed.given_name).toBe('Pat');
    expect(
      SignUpBodySchema.safeParse({
        token: 'x'.repeat(20),
        email: 'a@b.test',
        given_name: '  ',
        family_name: 'Lee',
        password: 'Abcdefg1',
      }).success,
    ).toBe(false);
  });
});
