import type { IdTokenPayload } from '@patientsim/domain/identity/token.schemas';
import { useQuery } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  NORTHGATE_ID,
  RIVERSIDE_ID,
  buildGroup,
  buildGroupsDataEntry,
  buildLoginResult,
  buildPayload,
} from '../../testing/factories';
import { errorResponse, ok, stubApi } from '../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../testing/render';
import { readLoginResult, writeGroups, writeLoginResult } from '../../lib/session-store';
import { AREA_ACCESS, guard } from '../guards';
import { OrgMenu } from './org-menu';

const GROUPS = [buildGroup(), buildGroup({ _id: NORTHGATE_ID, name: 'Northgate Nursing School' })];

function memberOfTwo(activeOrg: string, role: IdTokenPayload['role'] = 'USER'): IdTokenPayload {
  return buildPayload({
    role,
    email: 'multi@demo.test',
    groups: [RIVERSIDE_ID, NORTHGATE_ID],
    org: activeOrg,
    app_metadata: { ...buildPayload().app_metadata, role, activeOrg },
    groupsData: [
      buildGroupsDataEntry({ role }),
      buildGroupsDataEntry({ _id: NORTHGATE_ID, name: 'Northgate Nursing School', role }),
    ],
  });
}

/** The organisation page the user is on, with data of the active organisation. */
function OrgPage() {
  const { data } = useQuery({
    queryKey: ['org', 'page'],
    queryFn: () => Promise.resolve(`Data of ${readLoginResult()?.idTokenPayload.org ?? 'none'}`),
  });
  return <p>{data ?? 'Loading'}</p>;
}

function renderOnOrgPage(options: { isViewAs?: boolean } = {}) {
  writeLoginResult({ ...buildLoginResult(), idTokenPayload: memberOfTwo(RIVERSIDE_ID), fromSkeletonKey: options.isViewAs });
  writeGroups(GROUPS, [GROUPS[0]!]);
  return renderRoutes(
    [
      {
        path: '/auth/org/profile',
        loader: guard(AREA_ACCESS.org),
        element: (
          <>
            <OrgMenu />
            <OrgPage />
          </>
        ),
      },
      { path: '/auth/account/profile', element: <p>Profile page</p> },
    ],
    '/auth/org/profile',
  );
}

function stubSwitch(renewed: IdTokenPayload, changeOrg = () => ok()) {
  return stubApi([
    { method: 'POST', path: '/api/users/auth/changeOrg', respond: changeOrg },
    {
      method: 'POST',
      path: '/api/users/auth/token',
      respond: () => jsonResponse({ idToken: 'renewed.token.sig', idTokenPayload: renewed }),
    },
    { method: 'GET', path: /^\/api\/users\/extension\/users\/[^/]+\/groups$/, respond: () => jsonResponse(GROUPS) },
  ]);
}

describe('OrgMenu: switching organisation', () => {
  it('switches from the header with the keyboard: new session, data fetched again, same page', async () => {
    const api = stubSwitch(memberOfTwo(NORTHGATE_ID));
    const { router } = renderOnOrgPage();
    expect(await screen.findByText(`Data of ${RIVERSIDE_ID}`)).toBeInTheDocument();
    const user = userEvent.setup();

    const menuButton = screen.getByRole('button', { name: 'Riverside EMS Academy' });
    menuButton.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitemradio', { name: 'Riverside EMS Academy' })).toHaveAttribute('aria-checked', 'true');
    within(menu).getByRole('menuitemradio', { name: 'Northgate Nursing School' }).focus();
    await user.keyboard('{Enter}');

    expect(await screen.findByText(`Data of ${NORTHGATE_ID}`)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/auth/changeOrg').map((call) => call.body)).toEqual([{ orgId: NORTHGATE_ID }]);
    expect(readLoginResult()?.idToken).toBe('renewed.token.sig');
    expect(router.state.location.pathname).toBe('/auth/org/profile');
    expect(await screen.findByRole('button', { name: 'Northgate Nursing School' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it('goes where the role guard sends the user when the page is not theirs in the new organisation', async () => {
    stubSwitch(memberOfTwo(NORTHGATE_ID, 'STUDENT'));
    const { router } = renderOnOrgPage();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Riverside EMS Academy' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Northgate Nursing School' }));

    expect(await screen.findByText('Profile page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/account/profile');
  });

  it('shows a refused switch inline and keeps the organisation and the page', async () => {
    const api = stubSwitch(memberOfTwo(NORTHGATE_ID), () =>
      errorResponse(403, 'FORBIDDEN', 'You are not a member of this organization.'),
    );
    const { router } = renderOnOrgPage();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Riverside EMS Academy' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Northgate Nursing School' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('You are not a member of this organization.');
    expect(screen.getByRole('menuitemradio', { name: 'Northgate Nursing School' })).toHaveAccessibleDescription(
      'You are not a member of this organization.',
    );
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(0);
    expect(readLoginResult()?.idTokenPayload.org).toBe(RIVERSIDE_ID);
    expect(router.state.location.pathname).toBe('/auth/org/profile');
  });

  it('offers no switching in a View-As session', async () => {
    stubSwitch(memberOfTwo(NORTHGATE_ID));
    renderOnOrgPage({ isViewAs: true });
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Riverside EMS Academy' }));

    expect(await screen.findByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitemradio')).not.toBeInTheDocument();
  });
});
