import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../testing/render';
import { LoginRoute } from './login';

describe('/login', () => {
  it('shows the notice a logout left for it (an e-mail change)', async () => {
    const { router } = renderRoutes(
      [
        { path: '/login', element: <LoginRoute /> },
        { path: '/x', element: null },
      ],
      '/auth/x',
    );
    await router.navigate('/auth/login', { state: { notice: 'Verification email sent to new address' } });
    expect(await screen.findByRole('status')).toHaveTextContent('Verification email sent to new address');
  });

  it('shows no notice otherwise', () => {
    renderRoutes([{ path: '/login', element: <LoginRoute /> }], '/auth/login');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
