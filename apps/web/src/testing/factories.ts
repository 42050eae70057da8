import type { Group, GroupMetadata } from '@patientsim/domain/groups/group.schemas';
import type { GroupsDataEntry, IdTokenPayload, LoginResult } from '@patientsim/domain/identity/token.schemas';
import type { Notification } from '@patientsim/domain/notifications/notification.schemas';

const NOW_SECONDS = () => Math.floor(Date.now() / 1000);

export const RIVERSIDE_ID = 'org-riverside-0001';
export const NORTHGATE_ID = 'org-northgate-0002';

export function buildGroupsDataEntry(overrides: Partial<GroupsDataEntry> = {}): GroupsDataEntry {
  return {
    _id: RIVERSIDE_ID,
    name: 'Riverside EMS Academy',
    parent: null,
    role: 'ADMIN',
    productType: 'EMS',
    inactive: false,
    ...overrides,
  };
}

export function buildPayload(overrides: Partial<IdTokenPayload> = {}): IdTokenPayload {
  const iat = NOW_SECONDS();
  const role = overrides.role ?? 'ADMIN';
  return {
    sub: 'user-1',
    iss: 'http://localhost:3000',
    aud: 'patientsim',
    iat,
    exp: iat + 3600,
    sid: 'session-1',
    email: 'admin@demo.test',
    email_verified: true,
    given_name: 'Ada',
    family_name: 'Admin',
    role,
    groups: [RIVERSIDE_ID],
    permissions: [],
    productType: 'EMS',
    aiActive: false,
    org: RIVERSIDE_ID,
    inactive: false,
    app_metadata: {
      stripeCustomerId: null,
      role,
      orgSpecificRoles: {},
      subscribedOrgs: [],
      activeOrg: RIVERSIDE_ID,
      paymentIssue: false,
      subscriptionActive: false,
    },
    groupsData: [buildGroupsDataEntry({ role })],
    ...overrides,
  };
}

export function buildLoginResult(overrides: Partial<IdTokenPayload> = {}, extra: Partial<LoginResult> = {}): LoginResult {
  return { idToken: 'header.payload.signature', idTokenPayload: buildPayload(overrides), ...extra };
}

export function buildGroup(overrides: { _id?: string; name?: string } = {}, metadata: Partial<GroupMetadata> = {}): Group {
  return {
    _id: overrides._id ?? RIVERSIDE_ID,
    name: overrides.name ?? 'Riverside EMS Academy',
    description: JSON.stringify({
      ownerId: 'someone-else',
      seats: 25,
      memberCount: 5,
      productType: 'EMS',
      dev: false,
      testing: false,
      debug: false,
      ai: false,
      inactive: false,
      ...metadata,
    } satisfies GroupMetadata),
  };
}

export function buildNotification(overrides: Partial<Notification> = {}): Notification {
  return {
    _id: 'n1',
    type: 'INFO',
    title: 'New EMS templates',
    message: 'Five EMS scenario templates are ready.',
    color: '#018786',
    date: '2026-03-01T10:00:00.000Z',
    media: null,
    animation: null,
    actions: [],
    read: false,
    ...overrides,
  };
}
