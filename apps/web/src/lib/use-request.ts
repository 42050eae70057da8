import { useCallback, useState } from 'react';

type RequestState = { isPending: boolean; isSuccess: boolean; error: Error | null };

const IDLE: RequestState = { isPending: false, isSuccess: false, error: null };

/**
 * One request of a public page and its state (pending, failed, done), without the query cache:
 * the sign-in and sign-up pages load no TanStack Query. `submit` resolves true once the request
 * succeeded; a failure is kept in `error`, never thrown.
 */
export function useRequest<Args extends unknown[]>(send: (...args: Args) => Promise<unknown>) {
  const [state, setState] = useState<RequestState>(IDLE);
  const submit = useCallback(
    async (...args: Args): Promise<boolean> => {
      setState({ isPending: true, isSuccess: false, error: null });
      try {
        await send(...args);
      } catch (error) {
        setState({ isPending: false, isSuccess: false, error: error instanceof Error ? error : new Error(String(error)) });
        return false;
      }
      setState({ isPending: false, isSuccess: true, error: null });
      return true;
    },
    [send],
  );
  return { ...state, submit };
}
