import { useCallback, useState } from 'react';

type RequestState = { isPending: boolean; isSuccess: boolean; error: Error | null };

const IDLE: RequestState = { isPending: false, isSuccess: false, error: null };

/**
 * One request of a public page and its state (pending, failed, done), without the query cache:
 * the sign-in and sign-up pages load no TanStack Query. `submit` resolves with the answer once the
 * request succeeded, null when it failed; a failure is kept in `error`, never thrown.
 */
export function useRequest<Args extends unknown[], Answer>(send: (...args: Args) => Promise<Answer>) {
  const [state, setState] = useState<RequestState>(IDLE);
  const submit = useCallback(
    async (...args: Args): Promise<{ answer: Answer } | null> => {
      setState({ isPending: true, isSuccess: false, error: null });
      let answer: Answer;
      try {
        answer = await send(...args);
      } catch (error) {
        setState({ isPending: false, isSuccess: false, error: error instanceof Error ? error : new Error(String(error)) });
        return null;
      }
      setState({ isPending: false, isSuccess: true, error: null });
      return { answer };
    },
    [send],
  );
  return { ...state, submit };
}
