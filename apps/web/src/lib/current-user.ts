import { reachesOrganisationContent } from '@patientsim/domain/account/subscription';
import { type Group, type GroupMetadata, displayGroupName, parseGroupMetadata } from '@patientsim/domain/groups/group.schemas';
import type { GroupsDataEntry, IdTokenPayload, LoginResult } from '@patientsim/domain/identity/token.schemas';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { type Role, effectiveRole } from '@patientsim/domain/roles/roles';

export type Organisation = {
  id: string;
  /** Display name (sub-group prefixes stripped). */
  name: string;
  role: Role;
  isInactive: boolean;
};

/** The signed-in user as the screens need it, derived from the stored token and groups. */
export type CurrentUser = {
  id: string;
  email: string;
  givenName: string;
  familyName: string;
  /** Given and family name, or the e-mail when both are empty. */
  displayName: string;
  isEmailVerified: boolean;
  /** The role in the active organisation (an organisation-specific role overrides the global one). */
  role: Role;
  organisations: Organisation[];
  activeOrg: Organisation | null;
  /** Metadata of the active organisation, when its group was fetched after login. */
  activeOrgMetadata: GroupMetadata | null;
  isActiveOrgInactive: boolean;
  /**
   * The active organisation's cases are out of reach: the user is its subscribed member and their
   * own subscription is not active (decision 0035). They keep the organisation otherwise.
   */
  isActiveOrgContentLocked: boolean;
  /**
   * A student in the active organisation, told by the one permission students lack (a lasting
   * session, spec section 6). The case library shows students a plain list.
   */
  isStudent: boolean;
  isKeyOwner: boolean;
  hasPaymentIssue: boolean;
  /** Has a payment customer identifier: the billing portal can open. */
  hasPaymentCustomer: boolean;
  /** A provider (super admin) whose active organisation is a dev one: may download scenario summaries. */
  canDownloadScenarioSummary: boolean;
  /** A View-As-User session (Skeleton Key). */
  isImpersonated: boolean;
};

function toOrganisation(entry: GroupsDataEntry): Organisation {
  return { id: entry._id, name: displayGroupName(entry.name), role: entry.role, isInactive: entry.inactive };
}

/** The user's top-level organisations, from the token's groups-data claim. */
export function topLevelOrganisations(payload: IdTokenPayload): GroupsDataEntry[] {
  return payload.groupsData.filter((entry) => entry.parent === null);
}

/**
 * The active organisation (spec section 4): activeOrg from the user's metadata when it is among
 * the user's organisations, else the token's org claim when it is, else the first organisation.
 */
export function resolveActiveOrgId(payload: IdTokenPayload): string | null {
  const orgIds = topLevelOrganisations(payload).map((entry) => entry._id);
  const { activeOrg } = payload.app_metadata;
  if (activeOrg && orgIds.includes(activeOrg)) return activeOrg;
  if (payload.org && orgIds.includes(payload.org)) return payload.org;
  return orgIds[0] ?? null;
}

/** Groups that have no parent: the organisations among fetched groups. */
export function topLevelGroups(groups: readonly Group[]): Group[] {
  return groups.filter((group) => !parseGroupMetadata(group)?.parent);
}

/** The active groups: the main organisation plus its sub-groups (spec section 4). */
export function selectActiveGroups(groups: readonly Group[], activeOrgId: string | null): Group[] {
  if (!activeOrgId) return [];
  return groups.filter((group) => group._id === activeOrgId || parseGroupMetadata(group)?.parent === activeOrgId);
}

/** A View-As-User (Skeleton Key) login result: provisioned by loginAs, never renewed (spec section 4). */
export function isViewAsResult(result: LoginResult | null): boolean {
  return Boolean(result?.idTokenPayload.act || result?.fromSkeletonKey);
}

export function deriveCurrentUser(result: LoginResult, groups: readonly Group[]): CurrentUser {
  const payload = result.idTokenPayload;
  const organisations = topLevelOrganisations(payload).map(toOrganisation);
  const activeOrgId = resolveActiveOrgId(payload);
  const activeOrg = organisations.find((org) => org.id === activeOrgId) ?? null;
  const activeGroup = groups.find((group) => group._id === activeOrgId);
  const activeOrgMetadata = activeGroup ? parseGroupMetadata(activeGroup) : null;
  const orgRole = activeOrgId ? payload.app_metadata.orgSpecificRoles[activeOrgId] : undefined;
  const role = effectiveRole(payload.role, orgRole ?? activeOrg?.role);
  const fullName = `${payload.given_name} ${payload.family_name}`.trim();

  return {
    id: payload.sub,
    email: payload.email,
    givenName: payload.given_name,
    familyName: payload.family_name,
    displayName: fullName || payload.email,
    isEmailVerified: payload.email_verified,
    role,
    organisations,
    activeOrg,
    activeOrgMetadata,
    isActiveOrgInactive: Boolean(activeOrg?.isInactive || activeOrgMetadata?.inactive || payload.inactive),
    isActiveOrgContentLocked: activeOrgId !== null && !reachesOrganisationContent(payload.app_metadata, activeOrgId),
    isStudent: !hasPermission(role, 'session:lasting'),
    isKeyOwner: Boolean(activeOrgMetadata && activeOrgMetadata.ownerId === payload.sub),
    hasPaymentIssue: payload.app_metadata.paymentIssue,
    hasPaymentCustomer: Boolean(payload.app_metadata.stripeCustomerId),
    canDownloadScenarioSummary: hasPermission(role, 'access:console') && activeOrgMetadata?.dev === true,
    isImpersonated: isViewAsResult(result),
  };
}
