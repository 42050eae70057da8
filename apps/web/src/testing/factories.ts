import type { Group, GroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { seatFigures } from '@patientsim/domain/groups/seats';
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

/**
 * A group as the API answers it. An organisation carries its seat figures as the server counts them
 * (decision 0035): by default every member holds a seat and no invitation is pending.
 */
export function buildGroup(overrides: { _id?: string; name?: string } = {}, metadata: Partial<GroupMetadata> = {}): Group {
  const base: GroupMetadata = {
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
  };
  const figures =
    base.parent === undefined
      ? seatFigures(base.seats, {
          seatHolders: base.seatHolders ?? base.memberCount,
          pendingSeatInvitations: base.pendingSeatInvitations ?? 0,
        })
      : null;
  return {
    _id: overrides._id ?? RIVERSIDE_ID,
    name: overrides.name ?? 'Riverside EMS Academy',
    description: JSON.stringify({
      ...base,
      ...(figures
        ? { seatHolders: figures.seatHolders, pendingSeatInvitations: figures.pendingSeatInvitations, openSeats: figures.open }
        : {}),
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
