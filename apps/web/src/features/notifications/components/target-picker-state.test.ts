import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, addTargets, canAdd, pickerLocks, selectionTargets } from './target-picker-state';

const riverside = { id: 'org1', name: 'Riverside EMS Academy' };

describe('the notification target picker', () => {
  it('turns off organisations and users once an all-users category is chosen', () => {
    const locks = pickerLocks({ ...EMPTY_SELECTION, allUsers: ['ALL_STUDENTS'] }, []);
    expect(locks).toMatchObject({ allUsers: false, organisation: true, user: true });
  });

  it('turns off all-users and the user once an organisation or its categories are chosen', () => {
    expect(pickerLocks({ ...EMPTY_SELECTION, organisation: riverside }, [])).toMatchObject({
      allUsers: true,
      user: true,
      organisation: false,
    });
    expect(pickerLocks({ ...EMPTY_SELECTION, orgCategories: ['_ADMINS'] }, [])).toMatchObject({ allUsers: true, user: true });
  });

  it('turns off the others once a user is chosen', () => {
    const locks = pickerLocks({ ...EMPTY_SELECTION, user: { id: 'u1', label: 'Sam (sam@example.test)' } }, []);
    expect(locks).toMatchObject({ allUsers: true, organisation: true, user: false });
  });

  it("keeps 'Everyone' and the specific roles apart, also against the targets already added", () => {
    const everyone = pickerLocks({ ...EMPTY_SELECTION, allUsers: ['ALL_USERS'] }, []);
    expect(everyone.isAllUsersCategoryLocked('ALL_ADMINS')).toBe(true);
    expect(everyone.isAllUsersCategoryLocked('ALL_USERS')).toBe(false);
    const roles = pickerLocks(EMPTY_SELECTION, [{ principalType: 'GROUP', principalId: 'ALL_STUDENTS' }]);
    expect(roles.isAllUsersCategoryLocked('ALL_USERS')).toBe(true);
    expect(roles.isAllUsersCategoryLocked('ALL_ADMINS')).toBe(false);
    const wholeOrg = pickerLocks({ ...EMPTY_SELECTION, organisation: riverside }, [
      { principalType: 'GROUP', principalId: 'org1' },
    ]);
    expect(wholeOrg.isOrgCategoryLocked('_INSTRUCTORS')).toBe(true);
    expect(wholeOrg.isOrgCategoryLocked('')).toBe(false);
    const orgAdmins = pickerLocks({ ...EMPTY_SELECTION, organisation: riverside, orgCategories: ['_ADMINS'] }, []);
    expect(orgAdmins.isOrgCategoryLocked('')).toBe(true);
  });

  it('enables Add for an all-users category, org categories with an organisation, or a user', () => {
    expect(canAdd(EMPTY_SELECTION)).toBe(false);
    expect(canAdd({ ...EMPTY_SELECTION, allUsers: ['ALL_USERS'] })).toBe(true);
    expect(canAdd({ ...EMPTY_SELECTION, organisation: riverside })).toBe(false);
    expect(canAdd({ ...EMPTY_SELECTION, orgCategories: ['_ADMINS'] })).toBe(false);
    expect(canAdd({ ...EMPTY_SELECTION, organisation: riverside, orgCategories: ['_ADMINS'] })).toBe(true);
    expect(canAdd({ ...EMPTY_SELECTION, user: { id: 'u1', label: 'x' } })).toBe(true);
  });

  it('labels the targets of a selection and ignores duplicates when adding', () => {
    const added = selectionTargets({ ...EMPTY_SELECTION, organisation: riverside, orgCategories: ['_ADMINS', '_INSTRUCTORS'] });
    expect(added).toEqual([
      { principalType: 'GROUP', principalId: 'org1_ADMINS', label: 'Riverside EMS Academy: Admins' },
      { principalType: 'GROUP', principalId: 'org1_INSTRUCTORS', label: 'Riverside EMS Academy: Instructors' },
    ]);
    expect(selectionTargets({ ...EMPTY_SELECTION, organisation: riverside, orgCategories: [''] })[0]?.label).toBe(
      'Riverside EMS Academy',
    );
    const once = addTargets([], added);
    expect(addTargets(once, added)).toEqual(once);
  });
});
