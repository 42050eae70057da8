import { PASSWORD_POLICY_TEXT, WEAK_PASSWORD_MESSAGE } from '@patientsim/domain/auth/password-policy';

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
