import { act, render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { buildLoginResult } from '../testing/factories';
import { stubApi } from '../testing/fake-api';
import { readLoginNotice, useLogout } from './logout';
import { createQueryClient } from './query-client';
import { readLoginResult, writeLoginResult } from './session-store';

describe('useLogout', () => {
  it('lets a second logout join the first: one sign-out, and the first one’s notice reaches login', async () => {
    writeLoginResult(buildLoginResult());
    const api = stubApi();
    let logout: ReturnType<typeof useLogout> | null = null;
    function Probe() {
      logout = useLogout();
      return null;
    }
    const router = createMemoryRouter(
      [
        { path: '/auth/profile', element: <Probe /> },
        { path: '/auth/login', element: null },
      ],
      { initialEntries: ['/auth/profile'] },
    );
    render(
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    if (!logout) throw new Error('useLogout did not render');
    const run = logout as ReturnType<typeof useLogout>;

    await act(async () => {
      await Promise.all([run({ notice: 'Verification email sent to new address' }), run({ endServerSession: false })]);
    });

    expect(router.state.location.pathname).toBe('/auth/login');
    expect(readLoginNotice(router.state.location.state)).toBe('Verification email sent to new address');
    expect(api.callsTo('POST', '/api/users/auth/sign-out')).toHaveLength(1);
    expect(readLoginResult()).toBeNull();
  });
});
