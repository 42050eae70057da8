import { hasPermission } from '@patientsim/domain/roles/permissions';
import { ROLES, type Role } from '@patientsim/domain/roles/roles';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { deriveCurrentUser } from '../../lib/current-user';
import { buildGroup, buildGroupsDataEntry, buildLoginResult } from '../../testing/factories';
import type { RouteHandle } from '../route-table/page';
import { routes } from '../router';
import { sideNavItems } from './side-nav-items';

function labels(result: ReturnType<typeof buildLoginResult>, groups = [buildGroup()]) {
  return sideNavItems(deriveCurrentUser(result, groups)).map((item) => `${item.label} ${item.to}`);
}

/** A user of `role` in an active organisation (its key owner when asked), or in none. */
function userOf(role: Role, { isKeyOwner = false, isInOrganisation = true } = {}) {
  const result = isInOrganisation
    ? buildLoginResult({ role, sub: 'user-1', groupsData: [buildGroupsDataEntry({ role })] })
    : buildLoginResult({ role, sub: 'user-1', groupsData: [], org: null });
  const groups = isInOrganisation ? [buildGroup({}, { ownerId: isKeyOwner ? 'user-1' : 'someone-else' })] : [];
  return deriveCurrentUser(result, groups);
}

/** The access the route table declares for a router path: that of the deepest matching route. */
function routeAccessOf(path: string) {
  const matches = matchRoutes(routes, path) ?? [];
  const leaf = matches.at(-1)?.route;
  expect(leaf?.path, `${path} is a page of the route table`).not.toBe('*');
  return (leaf?.handle as RouteHandle | undefined)?.access;
}

describe('sideNavItems', () => {
  it('gives a student scenarios and account only', () => {
    const result = buildLoginResult({ role: 'STUDENT', groupsData: [buildGroupsDataEntry({ role: 'STUDENT' })] });
    expect(labels(result)).toEqual(['SCENARIOS /authoring/cases', 'ACCOUNT /auth/account/profile']);
  });

  it('sends an instructor to the org groups', () => {
    const result = buildLoginResult({ role: 'USER', groupsData: [buildGroupsDataEntry({ role: 'USER' })] });
    expect(labels(result)).toEqual([
      'SCENARIOS /authoring/cases',
      'ASSIGNMENTS /authoring/assignments',
      'ACCOUNT /auth/account/profile',
      'ORG MANAGEMENT /auth/org/groups',
    ]);
  });

  it('sends an admin to the invite page and the key owner to the org profile', () => {
    const admin = buildLoginResult({ sub: 'admin-1' });
    expect(labels(admin)).toContain('ORG MANAGEMENT /auth/org/invite');
    const owner = buildLoginResult({ sub: 'owner-1' });
    expect(labels(owner, [buildGroup({}, { ownerId: 'owner-1' })])).toContain('ORG MANAGEMENT /auth/org/profile');
  });

  it('adds the access and CMS buttons for a super admin', () => {
    const result = buildLoginResult({ role: 'SUPER_ADMIN', groupsData: [buildGroupsDataEntry({ role: 'SUPER_ADMIN' })] });
    expect(labels(result)).toEqual(expect.arrayContaining(['ACCESS /auth/access/organizations', 'CMS /cms']));
  });

  it('hides scenarios and org management without an organisation, and scenarios in an inactive one', () => {
    const noOrg = buildLoginResult({ role: 'STUDENT', groupsData: [], org: null });
    expect(labels(noOrg, [])).toEqual(['ACCOUNT /auth/account/profile']);
    const inactive = buildLoginResult({ groupsData: [buildGroupsDataEntry({ inactive: true })] });
    expect(labels(inactive)).not.toContain('SCENARIOS /authoring/cases');
  });

  it('hides scenarios from a subscribed member without an active subscription of their own (decision 0035)', () => {
    const subscribed = (subscriptionActive: boolean) => {
      const result = buildLoginResult({ role: 'STUDENT', groupsData: [buildGroupsDataEntry({ role: 'STUDENT' })] });
      result.idTokenPayload.app_metadata.subscribedOrgs = [result.idTokenPayload.groupsData[0]?._id ?? ''];
      result.idTokenPayload.app_metadata.subscriptionActive = subscriptionActive;
      return labels(result);
    };
    expect(subscribed(false)).toEqual(['ACCOUNT /auth/account/profile']);
    expect(subscribed(true)).toEqual(['SCENARIOS /authoring/cases', 'ACCOUNT /auth/account/profile']);
  });

  it("puts a '!' badge on ACCOUNT on a payment issue", () => {
    const result = buildLoginResult();
    result.idTokenPayload.app_metadata.paymentIssue = true;
    const account = sideNavItems(deriveCurrentUser(result, [])).find((item) => item.key === 'account');
    expect(account?.badge?.content).toBe('!');
  });

  it("puts the '!' badge on ACCOUNT for a pending invitation, and names both reasons", () => {
    const result = buildLoginResult();
    const invited = sideNavItems(deriveCurrentUser(result, []), { hasPendingInvitation: true }).find(
      (item) => item.key === 'account',
    );
    expect(invited?.badge).toEqual({ content: '!', description: 'pending invitation' });

    result.idTokenPayload.app_metadata.paymentIssue = true;
    const both = sideNavItems(deriveCurrentUser(result, []), { hasPendingInvitation: true }).find(
      (item) => item.key === 'account',
    );
    expect(both?.badge?.description).toBe('payment issue, pending invitation');
    const neither = sideNavItems(deriveCurrentUser(buildLoginResult(), [])).find((item) => item.key === 'account');
    expect(neither?.badge).toBeUndefined();
  });

  it.each([
    ['a student', userOf('STUDENT'), ['SCENARIOS /authoring/cases', 'ACCOUNT /auth/account/profile']],
    [
      'an instructor',
      userOf('USER'),
      [
        'SCENARIOS /authoring/cases',
        'ASSIGNMENTS /authoring/assignments',
        'ACCOUNT /auth/account/profile',
        'ORG MANAGEMENT /auth/org/groups',
      ],
    ],
    [
      'an admin',
      userOf('ADMIN'),
      [
        'SCENARIOS /authoring/cases',
        'ASSIGNMENTS /authoring/assignments',
        'ACCOUNT /auth/account/profile',
        'ORG MANAGEMENT /auth/org/invite',
      ],
    ],
    [
      'a key owner',
      userOf('ADMIN', { isKeyOwner: true }),
      [
        'SCENARIOS /authoring/cases',
        'ASSIGNMENTS /authoring/assignments',
        'ACCOUNT /auth/account/profile',
        'ORG MANAGEMENT /auth/org/profile',
      ],
    ],
    [
      'a super admin',
      userOf('SUPER_ADMIN'),
      [
        'SCENARIOS /authoring/cases',
        'ASSIGNMENTS /authoring/assignments',
        'ACCOUNT /auth/account/profile',
        'ORG MANAGEMENT /auth/org/invite',
        'ACCESS /auth/access/organizations',
        'CMS /cms',
      ],
    ],
    ['a student with no organisation', userOf('STUDENT', { isInOrganisation: false }), ['ACCOUNT /auth/account/profile']],
    [
      'an instructor with no organisation',
      userOf('USER', { isInOrganisation: false }),
      ['ASSIGNMENTS /authoring/assignments', 'ACCOUNT /auth/account/profile'],
    ],
    [
      'a super admin with no organisation',
      userOf('SUPER_ADMIN', { isInOrganisation: false }),
      ['ASSIGNMENTS /authoring/assignments', 'ACCOUNT /auth/account/profile', 'ACCESS /auth/access/organizations', 'CMS /cms'],
    ],
  ])('gives %s the buttons of spec section 2, in order', (_who, user, expected) => {
    expect(sideNavItems(user).map((item) => `${item.label} ${item.to}`)).toEqual(expected);
  });

  it('shows a button exactly to the roles that hold the permission of its target', () => {
    const everyButton = sideNavItems(userOf('SUPER_ADMIN'));
    expect(everyButton.map((item) => item.key)).toEqual([
      'scenarios',
      'assignments',
      'account',
      'orgManagement',
      'access',
      'cms',
    ]);
    for (const role of ROLES) {
      expect(sideNavItems(userOf(role)).map((item) => item.key)).toEqual(
        everyButton
          .filter((item) => item.permission === 'signed-in' || hasPermission(role, item.permission))
          .map((item) => item.key),
      );
    }
  });

  it('gates a button that opens a page of this app on the permission that page declares', () => {
    const users = [...ROLES.map((role) => userOf(role)), userOf('ADMIN', { isKeyOwner: true })];
    const checked = new Set<string>();
    for (const user of users) {
      for (const item of sideNavItems(user).filter((candidate) => !candidate.isExternal)) {
        expect(routeAccessOf(item.to), `${item.label} → ${item.to}`).toBe(item.permission);
        checked.add(item.to);
      }
    }
    expect([...checked].sort()).toEqual([
      '/auth/access/organizations',
      '/auth/account/profile',
      '/auth/org/groups',
      '/auth/org/invite',
      '/auth/org/profile',
      '/authoring/cases',
    ]);
  });
});
