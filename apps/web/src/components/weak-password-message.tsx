import { PASSWORD_POLICY_TEXT, WEAK_PASSWORD_MESSAGE } from '@patientsim/domain/auth/password-policy';

/** Verbatim from the spec (sections 5 and 8). */
export const PASSWORDS_DO_NOT_MATCH_MESSAGE = 'Passwords do not match!';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully';

/** 'Password is too weak' followed by the policy text (spec section 5). */
export function WeakPasswordMessage() {
  return (
    <>
      <span>{WEAK_PASSWORD_MESSAGE}</span>
      <br />
      <span>{PASSWORD_POLICY_TEXT}</span>
    </>
  );
}
