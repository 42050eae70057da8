import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RIVERSIDE_ID, buildGroup, buildGroupsDataEntry, buildLoginResult, buildPayload } from '../../../testing/factories';
import { stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { writeGroups, writeLoginResult } from '../../../lib/session-store';
import { orgMenuItems } from '../components/org-layout';
import { OrgSecurityRoute } from './org-security';
import type { Role } from '@patientsim/domain/roles/roles';
import { deriveCurrentUser } from '../../../lib/current-user';

function signInAs(role: Role) {
  const payload = buildPayload({
    role,
    org: RIVERSIDE_ID,
    app_metadata: { ...buildPayload().app_metadata, role, activeOrg: RIVERSIDE_ID },
    groupsData: [buildGroupsDataEntry({ role })],
  });
  const result = { ...buildLoginResult(), idTokenPayload: payload };
  writeLoginResult(result);
  writeGroups([buildGroup()], [buildGroup()]);
  return deriveCurrentUser(result, [buildGroup()]);
}

describe('OrgSecurityRoute', () => {
  it("shows an admin the active organisation's second factor requirement", async () => {
    signInAs('ADMIN');
    stubApi([
      {
        method: 'GET',
        path: `/api/users/extension/groups/${RIVERSIDE_ID}/two-factor-requirement`,
        respond: () => jsonResponse({ roles: ['ADMIN'] }),
      },
    ]);
    renderWithRouter(<OrgSecurityRoute />);
    expect(screen.getByRole('heading', { level: 1, name: 'Security' })).toBeInTheDocument();
    const section = await screen.findByRole('region', { name: 'Second factor' });
    expect(await within(section).findByRole('checkbox', { name: 'Admin' })).toBeChecked();
    expect(within(section).getByRole('checkbox', { name: 'Student' })).not.toBeChecked();
  });

  it('is in the org management menu of admins, who are not all key owners, and not of instructors', () => {
    const labels = (role: Role) => orgMenuItems(signInAs(role)).map((item) => item.label);
    expect(labels('ADMIN')).toContain('Security');
    expect(labels('USER')).not.toContain('Security');
  });
});
