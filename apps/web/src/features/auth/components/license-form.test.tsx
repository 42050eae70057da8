import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithRouter, requestBodyOf, requestUrlOf } from '../../../testing/render';
import { AGREE_LABEL, DISAGREE_LABEL, LicenseForm } from './license-form';

describe('LicenseForm', () => {
  it('enables Next only on agree, then accepts version 1.0', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    const onAccepted = vi.fn();
    const user = userEvent.setup();
    renderWithRouter(<LicenseForm token="license-token-123" onAccepted={onAccepted} />);

    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toBeDisabled();

    await user.click(screen.getByLabelText(DISAGREE_LABEL));
    expect(next).toBeDisabled();

    await user.click(screen.getByLabelText(AGREE_LABEL));
    expect(next).toBeEnabled();
    await user.click(next);

    await waitFor(() => expect(onAccepted).toHaveBeenCalledTimes(1));
    expect(requestUrlOf(fetchMock)).toBe('/api/users/auth/accept-license');
    expect(requestBodyOf(fetchMock)).toEqual({ token: 'license-token-123', version: '1.0' });
  });

  it('never sends a refusal, even when the form is submitted without the button', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    const onAccepted = vi.fn();
    const user = userEvent.setup();
    renderWithRouter(<LicenseForm token="license-token-123" onAccepted={onAccepted} />);

    await user.click(screen.getByLabelText(DISAGREE_LABEL));
    fireEvent.submit(screen.getByRole('button', { name: 'Next' }).closest('form') as HTMLFormElement);

    // Agreeing afterwards sends once: the refusal before it went nowhere.
    await user.click(screen.getByLabelText(AGREE_LABEL));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(onAccepted).toHaveBeenCalledTimes(1));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('shows why the acceptance failed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { statusCode: 400, code: 'LICENSE_TOKEN_INVALID', message: 'The license link is invalid or has expired.' },
          400,
        ),
      ),
    );
    const user = userEvent.setup();
    renderWithRouter(<LicenseForm token="license-token-123" onAccepted={vi.fn()} />);

    await user.click(screen.getByLabelText(AGREE_LABEL));
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('The license link is invalid or has expired.');
  });
});
