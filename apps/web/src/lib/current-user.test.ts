import { describe, expect, it } from 'vitest';
import {
  NORTHGATE_ID,
  RIVERSIDE_ID,
  buildGroup,
  buildGroupsDataEntry,
  buildLoginResult,
  buildPayload,
} from '../testing/factories';
import { deriveCurrentUser, resolveActiveOrgId, selectActiveGroups, topLevelGroups } from './current-user';

const twoOrgs = [
  buildGroupsDataEntry({ _id: RIVERSIDE_ID, role: 'USER' }),
  buildGroupsDataEntry({ _id: NORTHGATE_ID, name: 'Northgate Nursing School', role: 'USER', productType: 'NURSING' }),
];

describe('resolveActiveOrgId', () => {
  it('uses activeOrg from the metadata when it is among the organisations', () => {
    const payload = buildPayload({ groupsData: twoOrgs, org: RIVERSIDE_ID });
    payload.app_metadata.activeOrg = NORTHGATE_ID;
    expect(resolveActiveOrgId(payload)).toBe(NORTHGATE_ID);
  });

  it('falls back to the first organisation, and to none without organisations', () => {
    const payload = buildPayload({ groupsData: twoOrgs, org: null });
    payload.app_metadata.activeOrg = 'not-a-member';
    expect(resolveActiveOrgId(payload)).toBe(RIVERSIDE_ID);
    expect(resolveActiveOrgId(buildPayload({ groupsData: [], org: null }))).toBeNull();
  });

  it('ignores sub-groups', () => {
    const payload = buildPayload({
      groupsData: [buildGroupsDataEntry({ _id: 'cohort', parent: RIVERSIDE_ID })],
      org: 'cohort',
    });
    payload.app_metadata.activeOrg = 'cohort';
    expect(resolveActiveOrgId(payload)).toBeNull();
  });
});

describe('groups', () => {
  const org = buildGroup({ _id: RIVERSIDE_ID });
  const cohort = buildGroup({ _id: 'cohort-a', name: 'rive::Paramedic Cohort A' }, { parent: RIVERSIDE_ID });
  const other = buildGroup({ _id: NORTHGATE_ID, name: 'Northgate Nursing School' });

  it('finds the organisations among groups', () => {
    expect(topLevelGroups([org, cohort, other]).map((group) => group._id)).toEqual([RIVERSIDE_ID, NORTHGATE_ID]);
  });

  it('selects the active organisation and its sub-groups', () => {
    expect(selectActiveGroups([org, cohort, other], RIVERSIDE_ID).map((group) => group._id)).toEqual([RIVERSIDE_ID, 'cohort-a']);
    expect(selectActiveGroups([org, cohort], null)).toEqual([]);
  });
});

describe('deriveCurrentUser', () => {
  it('lets an organisation-specific role override the global role', () => {
    const result = buildLoginResult({ role: 'USER' });
    result.idTokenPayload.app_metadata.orgSpecificRoles = { [RIVERSIDE_ID]: 'ADMIN' };
    expect(deriveCurrentUser(result, []).role).toBe('ADMIN');
  });

  it('tells a student by the role in the active organisation', () => {
    const student = buildLoginResult({ role: 'STUDENT', groupsData: [buildGroupsDataEntry({ role: 'STUDENT' })] });
    expect(deriveCurrentUser(student, []).isStudent).toBe(true);
    student.idTokenPayload.app_metadata.orgSpecificRoles = { [RIVERSIDE_ID]: 'USER' };
    expect(deriveCurrentUser(student, []).isStudent).toBe(false);
    for (const role of ['USER', 'ADMIN', 'SUPER_ADMIN'] as const) {
      const result = buildLoginResult({ role, groupsData: [buildGroupsDataEntry({ role })] });
      expect(deriveCurrentUser(result, []).isStudent, role).toBe(false);
    }
  });

  it('recognises the key owner from the organisation metadata', () => {
    const result = buildLoginResult({ sub: 'owner-1' });
    expect(deriveCurrentUser(result, [buildGroup({}, { ownerId: 'owner-1' })]).isKeyOwner).toBe(true);
    expect(deriveCurrentUser(result, [buildGroup({}, { ownerId: 'other' })]).isKeyOwner).toBe(false);
  });

  it('reports an inactive organisation, a payment issue and a display name', () => {
    const result = buildLoginResult({ groupsData: [buildGroupsDataEntry({ inactive: true })] });
    result.idTokenPayload.app_metadata.paymentIssue = true;
    const user = deriveCurrentUser(result, []);
    expect(user.isActiveOrgInactive).toBe(true);
    expect(user.hasPaymentIssue).toBe(true);
    expect(user.displayName).toBe('Ada Admin');
    expect(deriveCurrentUser(buildLoginResult({ given_name: '', family_name: '' }), []).displayName).toBe('admin@demo.test');
  });

  it('locks the active organisation’s content for its subscribed member without an active subscription', () => {
    const result = buildLoginResult();
    expect(deriveCurrentUser(result, []).isActiveOrgContentLocked).toBe(false);
    result.idTokenPayload.app_metadata.subscribedOrgs = [result.idTokenPayload.org ?? ''];
    expect(deriveCurrentUser(result, []).isActiveOrgContentLocked).toBe(true);
    result.idTokenPayload.app_metadata.subscriptionActive = true;
    expect(deriveCurrentUser(result, []).isActiveOrgContentLocked).toBe(false);
  });

  it('knows a payment customer and a super admin in a dev organisation', () => {
    const owner = buildLoginResult();
    owner.idTokenPayload.app_metadata.stripeCustomerId = 'cus_1';
    expect(deriveCurrentUser(owner, []).hasPaymentCustomer).toBe(true);
    expect(deriveCurrentUser(buildLoginResult(), []).hasPaymentCustomer).toBe(false);

    const superAdmin = buildLoginResult({ role: 'SUPER_ADMIN', groupsData: [buildGroupsDataEntry({ role: 'SUPER_ADMIN' })] });
    expect(deriveCurrentUser(superAdmin, [buildGroup({}, { dev: true })]).canDownloadScenarioSummary).toBe(true);
    expect(deriveCurrentUser(superAdmin, [buildGroup({}, { dev: false })]).canDownloadScenarioSummary).toBe(false);
    expect(deriveCurrentUser(buildLoginResult(), [buildGroup({}, { dev: true })]).canDownloadScenarioSummary).toBe(false);
  });
});
