import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { CallbackRoute, LOGGING_IN_MESSAGE } from './callback';

describe('CallbackRoute', () => {
  it("shows 'Logging you in...', then the error with a link back to login", async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      ),
    );
    renderRoutes(
      [
        { path: '/callback', element: <CallbackRoute /> },
        { path: '/login', element: <p>login page</p> },
      ],
      '/auth/callback',
    );

    expect(await screen.findByText(LOGGING_IN_MESSAGE)).toBeInTheDocument();
    answer(jsonResponse({ statusCode: 401, code: 'UNAUTHENTICATED', message: 'You must be signed in.' }, 401));

    expect(await screen.findByRole('alert')).toHaveTextContent('You must be signed in.');
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/auth/login');
  });
});
