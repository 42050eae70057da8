import { describe, expect, it } from 'vitest';
import { deriveCurrentUser } from '../../lib/current-user';
import { buildGroup, buildGroupsDataEntry, buildLoginResult } from '../../testing/factories';
import { sideNavItems } from './side-nav-items';

function labels(result: ReturnType<typeof buildLoginResult>, groups = [buildGroup()]) {
  return sideNavItems(deriveCurrentUser(result, groups)).map((item) => `${item.label} ${item.to}`);
}

describe('sideNavItems', () => {
  it('gives a student scenarios and account only', () => {
    const result = buildLoginResult({ role: 'STUDENT', groupsData: [buildGroupsDataEntry({ role: 'STUDENT' })] });
    expect(labels(result)).toEqual(['SCENARIOS /authoring/cases', 'ACCOUNT /account/profile']);
  });

  it('sends an instructor to the org groups', () => {
    const result = buildLoginResult({ role: 'USER', groupsData: [buildGroupsDataEntry({ role: 'USER' })] });
    expect(labels(result)).toEqual([
      'SCENARIOS /authoring/cases',
      'ASSIGNMENTS /authoring/assignments',
      'ACCOUNT /account/profile',
      'ORG MANAGEMENT /org/groups',
    ]);
  });

  it('sends an admin to the invite page and the key owner to the org profile', () => {
    const admin = buildLoginResult({ sub: 'admin-1' });
    expect(labels(admin)).toContain('ORG MANAGEMENT /org/invite');
    const owner = buildLoginResult({ sub: 'owner-1' });
    expect(labels(owner, [buildGroup({}, { ownerId: 'owner-1' })])).toContain('ORG MANAGEMENT /org/profile');
  });

  it('adds the access and CMS buttons for a super admin', () => {
    const result = buildLoginResult({ role: 'SUPER_ADMIN', groupsData: [buildGroupsDataEntry({ role: 'SUPER_ADMIN' })] });
    expect(labels(result)).toEqual(expect.arrayContaining(['ACCESS /access/organizations', 'CMS /cms']));
  });

  it('hides scenarios and org management without an organisation, and scenarios in an inactive one', () => {
    const noOrg = buildLoginResult({ role: 'STUDENT', groupsData: [], org: null });
    expect(labels(noOrg, [])).toEqual(['ACCOUNT /account/profile']);
    const inactive = buildLoginResult({ groupsData: [buildGroupsDataEntry({ inactive: true })] });
    expect(labels(inactive)).not.toContain('SCENARIOS /authoring/cases');
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
});
