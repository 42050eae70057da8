import type { SignInAnswer, SignInBody } from '@patientsim/domain/auth/auth.schemas';
import { apiFetch } from '../../../lib/api-client';
import { useRequest } from '../../../lib/use-request';

/**
 * Signs in with e-mail and password; the server answers with the session cookie, and with the
 * license token while the license is still to accept. Read without the answer's schema: the sign-in
 * page keeps zod out of its first load, and only the token's presence matters here.
 */
export async function signIn(body: SignInBody): Promise<{ licenseToken: string | null }> {
  const answer = await apiFetch<Partial<SignInAnswer> | undefined>('/api/users/auth/sign-in', { method: 'POST', body });
  const licenseToken = answer?.licenseToken;
  return { licenseToken: typeof licenseToken === 'string' && licenseToken !== '' ? licenseToken : null };
}

/**
 * The sign-in request and its state (pending, failed). A plain request rather than a query
 * mutation: the sign-in page is the first page, and it loads no query cache.
 */
export function useSignIn() {
  return useRequest(signIn);
}
