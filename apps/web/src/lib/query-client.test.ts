import { describe, expect, it } from 'vitest';
import { RUNS_ONCE, createQueryClient, invalidateAllData } from './query-client';

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
