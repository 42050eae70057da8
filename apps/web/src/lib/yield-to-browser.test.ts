import { describe, expect, it } from 'vitest';
import { yieldToBrowser } from './yield-to-browser';

describe('yieldToBrowser', () => {
  it('resolves after the tasks already queued, not in the task that awaits it', async () => {
    const order: string[] = [];
    setTimeout(() => order.push('queued task'), 0);
    const yielded = yieldToBrowser().then(() => order.push('after the yield'));
    await Promise.resolve();
    order.push('same task');
    await yielded;
    expect(order).toEqual(['same task', 'queued task', 'after the yield']);
  });
});
