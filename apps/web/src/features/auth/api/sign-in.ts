import type { SignInBody } from '@patientsim/domain/auth/auth.schemas';
import { apiFetch } from '../../../lib/api-client';
import { useRequest } from '../../../lib/use-request';

/** Signs in with e-mail and password; the server answers with the session cookie. */
export function signIn(body: SignInBody): Promise<unknown> {
  return apiFetch('/api/users/auth/sign-in', { method: 'POST', body });
}

/**
 * The sign-in request and its state (pending, failed). A plain request rather than a query
 * mutation: the sign-in page is the first page, and it loads no query cache.
 */
export function useSignIn() {
  return useRequest(signIn);
}
