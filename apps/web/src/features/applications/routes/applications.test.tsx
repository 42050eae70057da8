import type { Application } from '@patientsim/domain/applications/application.schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { ApplicationsRoute, NO_APPLICATIONS_MESSAGE } from './applications';

const BUILDER: Application = {
  id: 'a1',
  name: 'Scenario builder',
  clientId: 'client-builder',
  type: 'confidential',
  redirectUris: ['https://builder.example.test/callback'],
  postLogoutRedirectUris: [],
  createdAt: '2026-11-28T05:00:00.000Z',
};

describe('the access area Applications screen', { timeout: 60_000 }, () => {
  it('says when no application is registered', async () => {
    writeLoginResult(buildLoginResult({ role: 'SUPER_ADMIN' }));
    stubApi([{ method: 'GET', path: '/api/users/applications', respond: () => jsonResponse({ applications: [] }) }]);
    renderWithRouter(<ApplicationsRoute />, { path: '/auth/access/applications' });
    expect(await screen.findByText(NO_APPLICATIONS_MESSAGE)).toBeInTheDocument();
  });

  it('shows a failed load with a retry', async () => {
    writeLoginResult(buildLoginResult({ role: 'SUPER_ADMIN' }));
    stubApi([
      { method: 'GET', path: '/api/users/applications', respond: () => errorResponse(500, 'INTERNAL', 'Something failed.') },
    ]);
    renderWithRouter(<ApplicationsRoute />, { path: '/auth/access/applications' });
    expect(await screen.findByRole('button', { name: /retry/i })).toBeInTheDocument();
  });

  it('registers a confidential application, shows its secret once, and removes an application after naming it', async () => {
    writeLoginResult(buildLoginResult({ role: 'SUPER_ADMIN' }));
    let applications: Application[] = [BUILDER];
    const api = stubApi([
      { method: 'GET', path: '/api/users/applications', respond: () => jsonResponse({ applications }) },
      {
        method: 'POST',
        path: '/api/users/applications',
        respond: () => {
          const application: Application = { ...BUILDER, id: 'a2', name: 'CMS', clientId: 'client-cms' };
          applications = [application, ...applications];
          return jsonResponse({ application, clientSecret: 'the-secret-shown-once' });
        },
      },
      {
        method: 'DELETE',
        path: /^\/api\/users\/applications\/[^/]+$/,
        respond: (request) => {
          applications = applications.filter((app) => !request.path.endsWith(app.id));
          return jsonResponse({ ok: true });
        },
      },
    ]);
    const user = userEvent.setup();
    renderWithRouter(<ApplicationsRoute />, { path: '/auth/access/applications' });
    const table = await screen.findByRole('table', { name: 'Applications' });
    expect(await within(table).findByText('client-builder')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Register application' }));
    const dialog = await screen.findByRole('dialog', { name: 'Register application' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'CMS');
    await user.type(within(dialog).getByRole('textbox', { name: /^Redirect URIs/ }), 'ftp://cms.example.test/cb');
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));
    expect(await within(dialog).findByText(/Use an https address/)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/applications')).toHaveLength(0);
    await user.clear(within(dialog).getByRole('textbox', { name: /^Redirect URIs/ }));
    await user.type(
      within(dialog).getByRole('textbox', { name: /^Redirect URIs/ }),
      'https://cms.example.test/cb{Enter}http://localhost:5174/cb',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));

    const registered = await screen.findByRole('dialog', { name: 'Application registered' });
    expect(within(registered).getByText('the-secret-shown-once')).toBeInTheDocument();
    expect(within(registered).getByText(/it will not be shown again/)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/applications')[0]?.body).toEqual({
      name: 'CMS',
      type: 'confidential',
      redirectUris: ['https://cms.example.test/cb', 'http://localhost:5174/cb'],
      postLogoutRedirectUris: [],
    });
    await user.click(within(registered).getByRole('button', { name: 'Done' }));
    expect(await within(table).findByText('client-cms')).toBeInTheDocument();
    expect(screen.queryByText('the-secret-shown-once')).not.toBeInTheDocument();

    await user.click(await within(table).findByRole('button', { name: 'Remove Scenario builder' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove application' });
    expect(confirm).toHaveTextContent('Remove Scenario builder?');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Scenario builder removed')).toBeInTheDocument();
    expect(api.callsTo('DELETE', /^\/api\/users\/applications\/a1$/)).toHaveLength(1);
  });
});
