import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_LENGTH } from '@patientsim/domain/common/constants';
import { useCallback, useEffect, useRef } from 'react';

/**
 * The search term of a field, reported once typing stops (spec section 9): `onTerm` gets the
 * trimmed text SEARCH_DEBOUNCE_MS after the last call of the returned function, or '' when it is
 * shorter than SEARCH_MIN_LENGTH; with `keepOnShortTerm`, a term of 1 or 2 characters reports
 * nothing and the last search stays (a table's search box). A term still waiting when the field goes
 * away is dropped: it would update a screen that is gone.
 */
export function useDebouncedTerm(
  onTerm: (term: string) => void,
  { keepOnShortTerm = false }: { keepOnShortTerm?: boolean } = {},
): (typed: string) => void {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latestOnTerm = useRef(onTerm);
  useEffect(() => {
    latestOnTerm.current = onTerm;
  }, [onTerm]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(
    (typed: string) => {
      if (timer.current) clearTimeout(timer.current);
      const term = typed.trim();
      const isShort = term.length > 0 && term.length < SEARCH_MIN_LENGTH;
      if (isShort && keepOnShortTerm) {
        timer.current = null;
        return;
      }
      timer.current = setTimeout(() => {
        timer.current = null;
        latestOnTerm.current(isShort ? '' : term);
      }, SEARCH_DEBOUNCE_MS);
    },
    [keepOnShortTerm],
  );
}
