import { describe, expect, it } from 'vitest';
import { RUNS_ONCE, createQueryClient, invalidateAllData, resetAllData } from './query-client';

describe('invalidateAllData', () => {
  it('marks every query stale except those that run once', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(['notifications', 'list'], []);
    await queryClient.prefetchQuery({ queryKey: ['payment', 'session'], queryFn: () => 'https://x.test/', meta: RUNS_ONCE });

    await invalidateAllData(queryClient);

    expect(queryClient.getQueryState(['notifications', 'list'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['payment', 'session'])?.isInvalidated).toBe(false);
  });
});

describe('resetAllData', () => {
  it('drops the data of every query except those that run once', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(['org', 'users'], ['someone of the previous organisation']);
    await queryClient.prefetchQuery({ queryKey: ['payment', 'session'], queryFn: () => 'https://x.test/', meta: RUNS_ONCE });

    await resetAllData(queryClient);

    expect(queryClient.getQueryData(['org', 'users'])).toBeUndefined();
    expect(queryClient.getQueryData(['payment', 'session'])).toBe('https://x.test/');
  });
});
