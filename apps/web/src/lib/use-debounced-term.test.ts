import { SEARCH_DEBOUNCE_MS } from '@patientsim/domain/common/constants';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedTerm } from './use-debounced-term';

describe('useDebouncedTerm', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports the trimmed term once typing stops, and only the last one', () => {
    const onTerm = vi.fn();
    const { result } = renderHook(() => useDebouncedTerm(onTerm));

    act(() => {
      result.current(' ad');
    });
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    });
    act(() => {
      result.current(' ada ');
    });
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    });
    expect(onTerm).not.toHaveBeenCalled();

    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onTerm).toHaveBeenCalledTimes(1);
    expect(onTerm).toHaveBeenCalledWith('ada');
  });

  it('reports an empty term for one or two characters', () => {
    const onTerm = vi.fn();
    const { result } = renderHook(() => useDebouncedTerm(onTerm));

    act(() => {
      result.current('ad');
    });
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    });
    expect(onTerm).toHaveBeenCalledWith('');
  });

  it('with keepOnShortTerm, reports nothing for one or two characters and drops the term before them', () => {
    const onTerm = vi.fn();
    const { result } = renderHook(() => useDebouncedTerm(onTerm, { keepOnShortTerm: true }));

    act(() => {
      result.current('ada');
    });
    act(() => {
      result.current('ad');
    });
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2);
    });
    expect(onTerm).not.toHaveBeenCalled();
  });

  it('drops a term still waiting when the field goes away', () => {
    const onTerm = vi.fn();
    const { result, unmount } = renderHook(() => useDebouncedTerm(onTerm));

    act(() => {
      result.current('ada');
    });
    unmount();
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2);
    expect(onTerm).not.toHaveBeenCalled();
  });
});
