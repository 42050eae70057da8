import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useStagedRender } from './use-staged-render';

describe('useStagedRender', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renders no stage at first, then one more per task, up to the last', () => {
    const { result } = renderHook(() => useStagedRender(3));
    expect(result.current).toBe(0);
    for (const expected of [1, 2, 3, 3]) {
      // One task: the timer that reveals the next stage.
      act(() => {
        vi.advanceTimersToNextTimer();
      });
      expect(result.current).toBe(expected);
    }
  });
});
