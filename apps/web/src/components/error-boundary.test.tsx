import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary';

describe('ErrorBoundary', () => {
  it('replaces a failing panel with a message and a way to try again', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let shouldFail = true;
    function Panel() {
      if (shouldFail) throw new Error('boom');
      return <p>Panel content</p>;
    }
    render(
      <>
        <p>Rest of the page</p>
        <ErrorBoundary message="The notifications could not be shown.">
          <Panel />
        </ErrorBoundary>
      </>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The notifications could not be shown.');
    expect(screen.getByText('Rest of the page')).toBeInTheDocument();

    shouldFail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('Panel content')).toBeInTheDocument();
    consoleError.mockRestore();
  });
});
