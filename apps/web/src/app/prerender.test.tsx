import { act, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import indexHtml from '../../index.html?raw';
import { withPrerenderedPage } from '../../vite/page-template';
import { renderPage } from './prerender';
import { AppProviders } from './providers';
import { routes } from './router';
import { AfterHydration, readTypedValues, restoreTypedValues } from './typed-values';

describe('the prerendered public pages', () => {
  let container: HTMLElement | null = null;

  afterEach(() => {
    container?.remove();
    container = null;
  });

  /** Puts the page the build writes for `path` in the document, as the browser receives it. */
  async function prerendered(path: string): Promise<HTMLElement> {
    const page = new DOMParser().parseFromString(
      withPrerenderedPage(indexHtml, await renderPage(`http://localhost${path}`)),
      'text/html',
    );
    const root = page.getElementById('root');
    if (!root) throw new Error('the page has no #root');
    container = document.importNode(root, true);
    document.body.append(container);
    return container;
  }

  /** Hydrates `root` as `main.tsx` does, and returns what React reported. */
  async function hydrate(root: HTMLElement, path: string) {
    const typed = readTypedValues(root);
    const reported: unknown[] = [];
    const consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => reported.push(args));
    const router = createMemoryRouter(routes, { initialEntries: [path] });
    await act(async () => {
      hydrateRoot(
        root,
        <StrictMode>
          <AfterHydration onHydrated={() => restoreTypedValues(typed)}>
            <AppProviders>
              <RouterProvider router={router} />
            </AppProviders>
          </AfterHydration>
        </StrictMode>,
        { onRecoverableError: (error) => reported.push(error) },
      );
    });
    consoleError.mockRestore();
    return reported;
  }

  it('hydrates the sign-in page without a mismatch, and hands its form what was typed before', async () => {
    const root = await prerendered('/auth/login');
    expect(root).toHaveAttribute('data-prerendered');
    const email = root.querySelector<HTMLInputElement>('input[name="email"]');
    if (!email) throw new Error('the prerendered page has no e-mail field');
    email.value = 'owner@demo.test';

    expect(await hydrate(root, '/auth/login')).toEqual([]);
    const field = screen.getByLabelText(/^Email/);
    expect(field).toBe(email);
    expect(field).toHaveValue('owner@demo.test');
    // The form knows the value: MUI raises the label of a filled field.
    expect(root.querySelector(`label[for="${email.id}"]`)).toHaveClass('MuiInputLabel-shrink');
  });

  it('hydrates the sign-up page without a mismatch', async () => {
    const root = await prerendered('/auth/signup');
    // React Router's way of hydrating a route loaded on demand, as main.tsx does: its module first.
    const signup = routes[0]?.children?.[0]?.children?.[0]?.children?.find((route) => route.path === 'signup');
    if (typeof signup?.lazy !== 'function') throw new Error('no lazy sign-up route');
    Object.assign(signup, { ...(await signup.lazy()), lazy: undefined });
    expect(await hydrate(root, '/auth/signup')).toEqual([]);
    expect(screen.getByRole('heading', { name: 'Sign up' })).toBeInTheDocument();
  });
});
