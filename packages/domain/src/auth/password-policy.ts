/** Password policy (spec sections 5 and 9): at least 8 characters with lower case, upper case and digits. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_POLICY_TEXT =
  'Your password must be at least 8 characters long and contain lower case letters (a-z), upper case letters (A-Z) and numbers (0-9).';

export const WEAK_PASSWORD_MESSAGE = 'Password is too weak';

/**
 * Added after the policy text when a password meets the composition rules but is easy to guess:
 * common passwords and words, names, dates, the product's words or the person's own (judged by the
 * server only: decision 0038).
 */
export const COMMON_PASSWORD_TEXT =
  'This password is too easy to guess; choose a longer one, away from common words, names and dates.';

export function isStrongPassword(password: string): boolean {
  return (
    password.length >= PASSWORD_MIN_LENGTH &&
    password.length <= PASSWORD_MAX_LENGTH &&
    /[a-z]/.test(password) &&
    /[A-Z]/.test(password) &&
    /[0-9]/.test(password)
  );
}
