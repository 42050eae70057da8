import {
  ALL_USERS_CATEGORIES,
  type NotificationTarget,
  ORG_CATEGORIES,
  type OrgCategorySuffix,
  orgCategoryGroupId,
} from '@patientsim/domain/notifications/notification.schemas';

export type AllUsersCategory = (typeof ALL_USERS_CATEGORIES)[number]['id'];
export type LabelledTarget = NotificationTarget & { label: string };

/** What the target picker holds before 'Add' (spec section 4). */
export type PickerSelection = {
  allUsers: AllUsersCategory[];
  organisation: { id: string; name: string } | null;
  orgCategories: OrgCategorySuffix[];
  user: { id: string; label: string } | null;
};

export const EMPTY_SELECTION: PickerSelection = { allUsers: [], organisation: null, orgCategories: [], user: null };

/** Which parts of the picker are off, given what is chosen and the targets already added. */
export type PickerLocks = {
  allUsers: boolean;
  organisation: boolean;
  user: boolean;
  isAllUsersCategoryLocked: (id: AllUsersCategory) => boolean;
  isOrgCategoryLocked: (suffix: OrgCategorySuffix) => boolean;
};

const hasGroup = (targets: readonly NotificationTarget[], id: string) =>
  targets.some((t) => t.principalType === 'GROUP' && t.principalId === id);

/**
 * The picker's rules (spec section 4): all-users categories turn off organisations and users; an
 * organisation or its categories turn off all-users and the user; a user turns off the others.
 * 'Everyone' excludes the specific roles and the reverse, within the selection and against the
 * targets already added (the server refuses the mix).
 */
export function pickerLocks(selection: PickerSelection, targets: readonly NotificationTarget[]): PickerLocks {
  const hasAllUsers = selection.allUsers.length > 0;
  const hasOrg = selection.organisation !== null || selection.orgCategories.length > 0;
  const hasUser = selection.user !== null;
  const everyoneChosen = selection.allUsers.includes('ALL_USERS') || hasGroup(targets, 'ALL_USERS');
  const rolesChosen =
    selection.allUsers.some((id) => id !== 'ALL_USERS') ||
    ALL_USERS_CATEGORIES.some((c) => c.id !== 'ALL_USERS' && hasGroup(targets, c.id));
  const orgId = selection.organisation?.id ?? null;
  const orgEveryoneChosen = selection.orgCategories.includes('') || (orgId !== null && hasGroup(targets, orgId));
  const orgRolesChosen =
    selection.orgCategories.some((suffix) => suffix !== '') ||
    (orgId !== null && ORG_CATEGORIES.some((c) => c.suffix !== '' && hasGroup(targets, orgCategoryGroupId(orgId, c.suffix))));
  return {
    allUsers: hasOrg || hasUser,
    organisation: hasAllUsers || hasUser,
    user: hasAllUsers || hasOrg,
    isAllUsersCategoryLocked: (id) => (id === 'ALL_USERS' ? rolesChosen : everyoneChosen),
    isOrgCategoryLocked: (suffix) => (suffix === '' ? orgRolesChosen : orgEveryoneChosen),
  };
}

/** 'Add' is enabled only for an all-users category, org categories with an organisation, or a user (spec section 5). */
export function canAdd(selection: PickerSelection): boolean {
  return (
    selection.allUsers.length > 0 ||
    (selection.organisation !== null && selection.orgCategories.length > 0) ||
    selection.user !== null
  );
}

/** The targets a selection stands for, labelled as the chips show them. */
export function selectionTargets(selection: PickerSelection): LabelledTarget[] {
  const targets: LabelledTarget[] = selection.allUsers.map((id) => ({
    principalType: 'GROUP',
    principalId: id,
    label: ALL_USERS_CATEGORIES.find((c) => c.id === id)?.label ?? id,
  }));
  const { organisation, user } = selection;
  if (organisation) {
    for (const suffix of selection.orgCategories) {
      const category = ORG_CATEGORIES.find((c) => c.suffix === suffix);
      targets.push({
        principalType: 'GROUP',
        principalId: orgCategoryGroupId(organisation.id, suffix),
        label: suffix === '' ? organisation.name : `${organisation.name}: ${category?.label ?? suffix}`,
      });
    }
  }
  if (user) targets.push({ principalType: 'USER', principalId: user.id, label: user.label });
  return targets;
}

/** Adds targets, ignoring those already there (spec section 4). */
export function addTargets(existing: readonly LabelledTarget[], added: readonly LabelledTarget[]): LabelledTarget[] {
  const key = (t: NotificationTarget) => `${t.principalType}:${t.principalId}`;
  const seen = new Set(existing.map(key));
  const result = [...existing];
  for (const target of added) {
    if (seen.has(key(target))) continue;
    seen.add(key(target));
    result.push(target);
  }
  return result;
}
