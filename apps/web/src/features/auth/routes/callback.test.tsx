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

    // Nothing to complete: no session behind the callback (spec section 8).
    expect(await screen.findByRole('alert')).toHaveTextContent('No authentication hash to parse');
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/auth/login');
  });

  it("shows an identity provider's error description from the fragment, without completing anything", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderRoutes(
      [
        { path: '/callback', element: <CallbackRoute /> },
        { path: '/login', element: <p>login page</p> },
      ],
      '/auth/callback#error=access_denied&error_description=Please%20verify%20your%20email%20first',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Please verify your email first');
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/auth/login');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a person whose organisation requires a second factor to set one up, carrying the callback to return to', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          jsonResponse(
            {
              statusCode: 403,
              code: 'TWO_FACTOR_ENROLMENT_REQUIRED',
              message: 'Your organization requires a second factor. Set one up to continue.',
            },
            403,
          ),
        ),
      ),
    );
    const { router } = renderRoutes(
      [
        { path: '/callback', element: <CallbackRoute /> },
        { path: '/two-factor/setup', element: <p>set-up page</p> },
      ],
      '/auth/callback?redirectUrl=%2Fauth%2Forg%2Fgroups',
    );
    expect(await screen.findByText('set-up page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/two-factor/setup');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe(
      '/auth/callback?redirectUrl=%2Fauth%2Forg%2Fgroups',
    );
  });
});
