import { type SignInAnswer, SignInAnswerSchema } from '@patientsim/domain/auth/auth.schemas';
import { WebAuthnJsonSchema } from '@patientsim/domain/auth/two-factor.schemas';
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * The sign-in's second step with a passkey: the server's authentication options, the browser's
 * ceremony (the person picks the passkey and unlocks it), then the server checks the answer and
 * opens the session, as a sign-in does. A ceremony the person cancelled throws the browser's error.
 */
export async function signInWithPasskey(): Promise<SignInAnswer> {
  const options = await apiFetch('/api/users/auth/sign-in/passkey/options', { method: 'POST', schema: WebAuthnJsonSchema });
  const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
  return apiFetch('/api/users/auth/sign-in/passkey', { method: 'POST', body: { response }, schema: SignInAnswerSchema });
}

export function useSignInWithPasskey() {
  return useMutation({ mutationKey: ['auth', 'sign-in', 'passkey'], mutationFn: signInWithPasskey });
}
