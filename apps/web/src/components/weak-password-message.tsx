import { COMMON_PASSWORD_TEXT, PASSWORD_POLICY_TEXT, WEAK_PASSWORD_MESSAGE } from '@patientsim/domain/auth/password-policy';
import { isApiError } from '../lib/api-client';

/** Verbatim from the spec (sections 5 and 8). */
export const PASSWORDS_DO_NOT_MATCH_MESSAGE = 'Passwords do not match!';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully';

/** True when the server refused a password as too easy to guess. */
export function isCommonPasswordError(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.code === 'invalid_password' &&
    typeof error.details === 'object' &&
    error.details !== null &&
    (error.details as { reason?: unknown }).reason === 'common'
  );
}

/**
 * 'Password is too weak' followed by the policy text (spec section 5); for a password the server
 * refused as too easy to guess (it may meet the policy), why.
 */
export function WeakPasswordMessage({ error }: { error?: unknown }) {
  return (
    <>
      <span>{WEAK_PASSWORD_MESSAGE}</span>
      <br />
      <span>{PASSWORD_POLICY_TEXT}</span>
      {isCommonPasswordError(error) ? (
        <>
          <br />
          <span>{COMMON_PASSWORD_TEXT}</span>
        </>
      ) : null}
    </>
  );
}
