import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renewalTimeMs, startInactivityTimer, startSessionPoll, startTimerAt } from './session-timers';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-03-01T10:00:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
});

describe('startSessionPoll', () => {
  it('reports a lost session at the next poll, once', () => {
    let isSignedIn = true;
    const onSignedOut = vi.fn();
    const stop = startSessionPoll({ intervalMs: 3000, isSignedIn: () => isSignedIn, onSignedOut });

    vi.advanceTimersByTime(6000);
    expect(onSignedOut).not.toHaveBeenCalled();

    isSignedIn = false;
    vi.advanceTimersByTime(2999);
    expect(onSignedOut).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onSignedOut).toHaveBeenCalledTimes(1);

    vi.advanceTimersByTime(30_000);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    stop();
  });
});

describe('startInactivityTimer', () => {
  it('expires after the timeout without activity', () => {
    const onExpire = vi.fn();
    const stop = startInactivityTimer({ timeoutMs: 1_200_000, throttleMs: 1000, onExpire });
    vi.advanceTimersByTime(1_199_999);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onExpire).toHaveBeenCalledTimes(1);
    stop();
  });

  it('restarts on activity, counted at most once a second', () => {
    const onExpire = vi.fn();
    const stop = startInactivityTimer({ timeoutMs: 10_000, throttleMs: 1000, onExpire });

    vi.advanceTimersByTime(5000);
    window.dispatchEvent(new Event('keydown'));
    // Half a second later: inside the throttle window, so not counted.
    vi.advanceTimersByTime(500);
    window.dispatchEvent(new Event('mousemove'));
    vi.advanceTimersByTime(9499);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onExpire).toHaveBeenCalledTimes(1);
    stop();
  });

  it('stops listening when stopped', () => {
    const onExpire = vi.fn();
    const stop = startInactivityTimer({ timeoutMs: 1000, throttleMs: 10, onExpire });
    stop();
    vi.advanceTimersByTime(5000);
    expect(onExpire).not.toHaveBeenCalled();
  });
});

describe('startTimerAt', () => {
  it('fires at the given time, or at once when it has passed', () => {
    const later = vi.fn();
    const past = vi.fn();
    startTimerAt(Date.now() + 5000, later);
    startTimerAt(Date.now() - 5000, past);
    vi.advanceTimersByTime(0);
    expect(past).toHaveBeenCalledTimes(1);
    expect(later).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5000);
    expect(later).toHaveBeenCalledTimes(1);
  });
});

describe('renewalTimeMs', () => {
  it('renews one minute before expiry', () => {
    expect(renewalTimeMs(1_000)).toBe(940_000);
  });
});
