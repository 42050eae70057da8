import type { SignInBody } from '@patientsim/domain/auth/auth.schemas';
import { useCallback, useState } from 'react';
import { apiFetch } from '../../../lib/api-client';

/** Signs in with e-mail and password; the server answers with the session cookie. */
export function signIn(body: SignInBody): Promise<unknown> {
  return apiFetch('/api/users/auth/sign-in', { method: 'POST', body });
}

type SignInState = { isPending: boolean; error: Error | null };

/**
 * The sign-in request and its state (pending, failed). A plain request rather than a query
 * mutation: the sign-in page is the first page, and it loads no query cache.
 */
export function useSignIn() {
  const [state, setState] = useState<SignInState>({ isPending: false, error: null });
  const submit = useCallback(async (body: SignInBody, onSignedIn: () => void) => {
    setState({ isPending: true, error: null });
    try {
      await signIn(body);
    } catch (error) {
      setState({ isPending: false, error: error instanceof Error ? error : new Error(String(error)) });
      return;
    }
    setState({ isPending: false, error: null });
    onSignedIn();
  }, []);
  return { ...state, submit };
}
