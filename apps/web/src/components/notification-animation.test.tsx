import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANIMATION_MAX_MS, CONFETTI, NotificationAnimation, isAnimationUrl } from './notification-animation';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('NotificationAnimation', () => {
  it('plays a URL as a muted video at speed 2, for 10 seconds at most', async () => {
    const { container } = render(<NotificationAnimation animation="/media/celebrate" />);
    const video = container.querySelector('video');
    expect(video).not.toBeNull();
    expect(video?.playbackRate).toBe(2);
    expect(video?.muted).toBe(true);
    expect(video).toHaveAttribute('src', '/media/celebrate');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(ANIMATION_MAX_MS - 1);
    });
    expect(container.querySelector('video')).not.toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(container.querySelector('video')).toBeNull();
  });

  it('draws the confetti animation by name, and stops it after 10 seconds', async () => {
    const fillRect = vi.fn();
    const getContext = vi
      .spyOn(HTMLCanvasElement.prototype, 'getContext')
      .mockReturnValue({ clearRect: vi.fn(), fillRect, fillStyle: '' } as unknown as CanvasRenderingContext2D);
    const { container } = render(<NotificationAnimation animation="confetti" />);
    expect(container.querySelector('canvas')).toHaveAttribute('width', '2000');

    // 30 frames a second at speed 2: 60 frames in one second.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    const framesInOneSecond = fillRect.mock.calls.length / CONFETTI.pieces;
    expect(framesInOneSecond).toBeGreaterThanOrEqual(58);
    expect(framesInOneSecond).toBeLessThanOrEqual(63);
    // Its 300 frames are drawn after 5 seconds; the canvas goes at 10.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(8000);
    });
    expect(fillRect).toHaveBeenCalledTimes(CONFETTI.frames * CONFETTI.pieces);
    expect(container.querySelector('canvas')).not.toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(container.querySelector('canvas')).toBeNull();
    getContext.mockRestore();
  });

  it('shows nothing for an unknown name', () => {
    const { container } = render(<NotificationAnimation animation="fireworks" />);
    expect(container).toBeEmptyDOMElement();
  });

  it('tells URLs from names', () => {
    expect(isAnimationUrl('/media/x')).toBe(true);
    expect(isAnimationUrl('https://cdn.example.org/a.webm')).toBe(true);
    expect(isAnimationUrl('confetti')).toBe(false);
  });
});
