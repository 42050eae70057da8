import type { FoundUser } from '@patientsim/domain/users/users.schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { AccessUsersRoute } from './access-users';

/** tester01 … tester55, by name, as the server answers them. */
const TESTERS: FoundUser[] = Array.from({ length: 55 }, (_item, index) => {
  const nn = String(index + 1).padStart(2, '0');
  return { user_id: `u${nn}`, email: `tester${nn}@demo.test`, given_name: 'Test', family_name: `Tester ${nn}`, role: 'STUDENT' };
});

function stubSearch() {
  return stubApi([
    {
      method: 'GET',
      path: '/api/users/search/users',
      respond: (request) => {
        const offset = Number(request.url.searchParams.get('offset') ?? 0);
        const count = Number(request.url.searchParams.get('count') ?? 50);
        return jsonResponse({ users: TESTERS.slice(offset, offset + count), total: TESTERS.length });
      },
    },
  ]);
}

describe('the access area users screen', { timeout: 60_000 }, () => {
  it('pages a search of 55 users: page 1 of 2 with 50 rows, then the last 5', async () => {
    writeLoginResult(buildLoginResult({ role: 'SUPER_ADMIN' }));
    const api = stubSearch();
    const user = userEvent.setup();
    renderWithRouter(<AccessUsersRoute />, { path: '/access/users' });
    await user.type(await screen.findByLabelText('Search users by email or name'), 'tester');
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(await screen.findByText('page 1 of 2')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(51);
    expect(within(table).getByText('tester01@demo.test')).toBeInTheDocument();
    expect(within(table).getByText('tester50@demo.test')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('page 2 of 2')).toBeInTheDocument();
    expect(await within(table).findByText('tester51@demo.test')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    expect(within(table).getByText('tester55@demo.test')).toBeInTheDocument();
    const offsets = api.callsTo('GET', '/api/users/search/users').map((request) => request.url.searchParams.get('offset'));
    expect(offsets).toEqual([null, '50']);

    // A new search starts from its first page.
    await user.clear(screen.getByLabelText('Search users by email or name'));
    await user.type(screen.getByLabelText('Search users by email or name'), 'tester0');
    expect(await screen.findByText('page 1 of 2')).toBeInTheDocument();
  });
});
