import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { assignLocation } from '../../../lib/browser';
import { stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { ConsentRoute } from './consent';

vi.mock(import('../../../lib/browser'), async (importOriginal) => ({
  ...(await importOriginal()),
  assignLocation: vi.fn(),
}));

const SIGNED_QUERY = 'client_id=client-cms&scope=openid+profile+email&exp=1&sig=abc';

beforeEach(() => {
  vi.mocked(assignLocation).mockClear();
});

describe('the consent page', { timeout: 30_000 }, () => {
  it('names the application and what it asks for, and posts the answer with the signed query', async () => {
    const api = stubApi([
      {
        method: 'GET',
        path: '/api/auth/oauth2/public-client',
        respond: () => jsonResponse({ client_id: 'client-cms', client_name: 'CMS' }),
      },
      {
        method: 'POST',
        path: '/api/auth/oauth2/consent',
        respond: () => jsonResponse({ redirect: true, url: 'https://cms.example.test/cb?code=xyz' }),
      },
    ]);
    const user = userEvent.setup();
    renderWithRouter(<ConsentRoute />, { path: `/auth/oauth/consent?${SIGNED_QUERY}` });
    expect(await screen.findByText('CMS')).toBeInTheDocument();
    expect(screen.getByText('See your email address')).toBeInTheDocument();
    expect(screen.getByText('See your name, role, organisation and permissions')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Allow' }));
    await vi.waitFor(() => expect(assignLocation).toHaveBeenCalledWith('https://cms.example.test/cb?code=xyz'));
    expect(api.callsTo('POST', '/api/auth/oauth2/consent')[0]?.body).toEqual({ accept: true, oauth_query: SIGNED_QUERY });
  });

  it('refuses a page without a signed request', async () => {
    stubApi([]);
    renderWithRouter(<ConsentRoute />, { path: '/auth/oauth/consent?client_id=x' });
    expect(await screen.findByText(/not valid any more/)).toBeInTheDocument();
  });
});
