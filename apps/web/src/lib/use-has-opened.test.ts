import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useHasOpened } from './use-has-opened';

describe('useHasOpened', () => {
  it('is false until the first opening, then stays true once closed again', () => {
    const { result, rerender } = renderHook(({ isOpen }) => useHasOpened(isOpen), { initialProps: { isOpen: false } });
    expect(result.current).toBe(false);
    rerender({ isOpen: true });
    expect(result.current).toBe(true);
    rerender({ isOpen: false });
    expect(result.current).toBe(true);
  });

  it('is true at once for what mounts open', () => {
    const { result } = renderHook(() => useHasOpened(true));
    expect(result.current).toBe(true);
  });
});
