import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '@patientsim/domain/roles/permissions';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { ROLE_RANK, ROLES, type Role } from '@patientsim/domain/roles/roles';
import { user } from '../src/db/schema/auth.js';
import { groupMember } from '../src/db/schema/groups.js';
import { invitation } from '../src/db/schema/invitations.js';
import { notification, notificationTarget } from '../src/db/schema/notifications.js';
import { caseConfiguration } from '../src/db/schema/cases.js';
import { buildCase, buildInvitation, buildNotification, buildNotificationTarget } from '../src/seed/builders.js';
import { buildTestApp, type TestApp } from './build-app.js';
import { createClient } from './client.js';
import { signInAs } from './sign-in-client.js';
import { addMember, findUser, insertGroup, insertMember, insertUser, signInNewMember, TEST_PASSWORD } from './fixtures.js';

type Session = Awaited<ReturnType<typeof signInAs>>;

/** True when `role` may call a route that asks `permission` of its caller. */
const holds = (role: Role, permission: Permission | 'signed-in') => permission === 'signed-in' || hasPermission(role, permission);

const CASE_ACCESS_CODE = 'matrix-case-access-code-0123456789';

/**
 * Every /api/users and /api/cases route and the GraphQL endpoint, its guard, and how to call it against the Riverside EMS Academy
 * organisation. A route missing here fails the test.
 */
type Ctx = {
  riverside: string;
  student: Session;
  instructor: Session;
  studentInviteId: string;
  notificationId: string;
  caseId: string;
};
type Call = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
};
type Entry =
  | { guard: 'public' | 'integration-key' | 'invite-token' | 'session' | 'peer-code' }
  | {
      guard: 'bearer';
      /** What the route asks of the caller: a permission, or only a signed-in person. */
      permission: Permission | 'signed-in';
      /** A call on a Riverside resource: other roles/organisations must be refused. */
      call: (ctx: Ctx) => Call;
      /** What a caller from another organisation gets for `call` (never the data). */
      otherOrganisation?: 403 | 404;
      /** Roles that hold the permission but are still refused on `call` by organisation rules. */
      alsoRefused?: Partial<Record<Role, 403 | 404>>;
    };

const MATRIX: Record<string, Entry> = {
  'POST /api/users/auth/sign-in': { guard: 'public' },
  'POST /api/users/auth/sign-out': { guard: 'session' },
  // The second step of a sign-in: the two-factor cookie of the password's step is the credential
  // (modules/auth/two-factor-sign-in.routes.test.ts, passkey-sign-in.routes.test.ts).
  'POST /api/users/auth/sign-in/two-factor': { guard: 'public' },
  'POST /api/users/auth/sign-in/passkey/options': { guard: 'public' },
  'POST /api/users/auth/sign-in/passkey': { guard: 'public' },
  // The account's second factors, by session cookie so they work during the enrolment gate
  // (modules/account/two-factor.routes.test.ts).
  'GET /api/users/account/two-factor': { guard: 'session' },
  'POST /api/users/account/two-factor/totp': { guard: 'session' },
  'POST /api/users/account/two-factor/totp/verify': { guard: 'session' },
  'POST /api/users/account/two-factor/totp/remove': { guard: 'session' },
  'POST /api/users/account/two-factor/recovery-codes': { guard: 'session' },
  'POST /api/users/account/passkeys/options': { guard: 'session' },
  'POST /api/users/account/passkeys': { guard: 'session' },
  'DELETE /api/users/account/passkeys/:id': { guard: 'session' },
  'POST /api/users/auth/token': { guard: 'session' },
  'POST /api/users/auth/accept-license': { guard: 'public' },
  'POST /api/users/invitations/invite-unaffiliated': { guard: 'public' },
  'GET /api/users/auth/signup-invitation': { guard: 'public' },
  'POST /api/users/auth/sign-up': { guard: 'public' },
  'POST /api/users/auth/register': { guard: 'public' },
  'POST /api/users/auth/request-password-reset': { guard: 'public' },
  'POST /api/users/auth/reset-password': { guard: 'public' },
  // The token of a "this wasn't me" link is the credential (account-takeover.test.ts).
  'POST /api/users/account/reclaim-email': { guard: 'public' },
  'GET /api/users/invitations/describe': { guard: 'public' },
  'POST /api/users/invitations/finish': { guard: 'invite-token' },
  'POST /api/users/integrations/provision': { guard: 'integration-key' },
  'GET /api/users/integrations/provisioning': { guard: 'public' },
  'POST /api/users/integrations/add-user': { guard: 'public' },
  'POST /api/users/jobs/verification-email': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({ method: 'POST', url: '/api/users/jobs/verification-email', payload: { user_id: c.student.userId } }),
    otherOrganisation: 404,
    alsoRefused: { USER: 404, ADMIN: 404 },
  },
  'POST /api/users/auth/changeOrg': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({ method: 'POST', url: '/api/users/auth/changeOrg', payload: { orgId: c.riverside } }),
    otherOrganisation: 404,
    alsoRefused: { SUPER_ADMIN: 404 },
  },
  'POST /api/users/auth/loginAs': {
    guard: 'bearer',
    permission: 'access:login-as',
    call: (c) => ({
      method: 'POST',
      url: '/api/users/auth/loginAs',
      payload: { orgId: c.riverside, email: c.student.payload.email },
    }),
  },
  'POST /api/users/auth/loginAs/end': {
    guard: 'bearer',
    permission: 'signed-in',
    // Only a View-As-User token has a view to end (view-as.routes.test.ts).
    call: () => ({ method: 'POST', url: '/api/users/auth/loginAs/end', payload: {} }),
    otherOrganisation: 404,
    alsoRefused: { STUDENT: 404, USER: 404, ADMIN: 404, SUPER_ADMIN: 404 },
  },
  'GET /api/users/applications': {
    guard: 'bearer',
    permission: 'applications:manage',
    call: () => ({ method: 'GET', url: '/api/users/applications' }),
  },
  'POST /api/users/applications': {
    guard: 'bearer',
    permission: 'applications:manage',
    call: () => ({
      method: 'POST',
      url: '/api/users/applications',
      payload: { name: 'Matrix app', type: 'public', redirectUris: ['https://app.example.test/callback'] },
    }),
  },
  'DELETE /api/users/applications/:id': {
    guard: 'bearer',
    permission: 'applications:manage',
    call: () => ({ method: 'DELETE', url: '/api/users/applications/unknown-application' }),
  },
  'GET /api/users/audit-events': {
    guard: 'bearer',
    permission: 'audit:read-all',
    call: (c) => ({ method: 'GET', url: `/api/users/audit-events?orgId=${c.riverside}` }),
  },
  'GET /api/users/audit-events/export': {
    guard: 'bearer',
    permission: 'audit:read-all',
    call: (c) => ({ method: 'GET', url: `/api/users/audit-events/export?orgId=${c.riverside}` }),
  },
  'GET /api/users/extension/groups/:id/audit-events': {
    guard: 'bearer',
    permission: 'org:audit:read',
    call: (c) => ({ method: 'GET', url: `/api/users/extension/groups/${c.riverside}/audit-events` }),
    otherOrganisation: 404,
  },
  'GET /api/users/extension/groups/:id/audit-events/export': {
    guard: 'bearer',
    permission: 'org:audit:read',
    call: (c) => ({ method: 'GET', url: `/api/users/extension/groups/${c.riverside}/audit-events/export` }),
    otherOrganisation: 404,
  },
  'GET /api/users/extension/users/:userId/groups': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({ method: 'GET', url: `/api/users/extension/users/${c.instructor.userId}/groups` }),
    otherOrganisation: 404,
    alsoRefused: { STUDENT: 404 },
  },
  'GET /api/users/extension/groups/:id/key-owner': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({ method: 'GET', url: `/api/users/extension/groups/${c.riverside}/key-owner` }),
    otherOrganisation: 404,
  },
  'DELETE /api/users/extension/groups/:id/members': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({
      method: 'DELETE',
      url: `/api/users/extension/groups/${c.riverside}/members`,
      payload: [c.instructor.userId],
    }),
    otherOrganisation: 404,
    alsoRefused: { STUDENT: 403 },
  },
  'GET /api/users/extension/groups': {
    guard: 'bearer',
    permission: 'signed-in',
    call: () => ({ method: 'GET', url: '/api/users/extension/groups' }),
  },
  'GET /api/users/extension/groups/:id': {
    guard: 'bearer',
    permission: 'org:read',
    call: (c) => ({ method: 'GET', url: `/api/users/extension/groups/${c.riverside}` }),
    otherOrganisation: 404,
  },
  'GET /api/users/extension/groups/:id/nested': {
    guard: 'bearer',
    permission: 'org:groups:read',
    call: (c) => ({ method: 'GET', url: `/api/users/extension/groups/${c.riverside}/nested` }),
    otherOrganisation: 404,
  },
  'POST /api/users/extension/groups': {
    guard: 'bearer',
    permission: 'org:groups:manage',
    call: (c) => ({
      method: 'POST',
      url: '/api/users/extension/groups',
      payload: { name: 'Matrix group', description: JSON.stringify({ parent: c.riverside }) },
    }),
    otherOrganisation: 404,
  },
  'PATCH /api/users/extension/groups/:id': {
    guard: 'bearer',
    permission: 'org:read',
    // Renaming the organisation needs its key owner or org:update; instructors hold only org:read.
    call: (c) => ({ method: 'PATCH', url: `/api/users/extension/groups/${c.riverside}`, payload: { name: 'Matrix rename' } }),
    otherOrganisation: 404,
    alsoRefused: { USER: 403 },
  },
  'DELETE /api/users/extension/groups/:id': {
    guard: 'bearer',
    permission: 'org:read',
    // Instructors manage only groups they own (admins get 422 here: an organisation is never deleted this way).
    call: (c) => ({ method: 'DELETE', url: `/api/users/extension/groups/${c.riverside}` }),
    otherOrganisation: 404,
    alsoRefused: { USER: 403 },
  },
  'DELETE /api/users/extension/groups/:parent/nested': {
    guard: 'bearer',
    permission: 'org:groups:manage',
    call: (c) => ({ method: 'DELETE', url: `/api/users/extension/groups/${c.riverside}/nested`, payload: [c.riverside] }),
    otherOrganisation: 404,
    alsoRefused: { ADMIN: 404, SUPER_ADMIN: 404 },
  },
  'PATCH /api/users/extension/groups/:id/members': {
    guard: 'bearer',
    permission: 'org:read',
    // Instructors add members only to groups they own (members join an organisation through invitations: 422 for admins).
    call: (c) => ({ method: 'PATCH', url: `/api/users/extension/groups/${c.riverside}/members`, payload: [c.student.userId] }),
    otherOrganisation: 404,
    alsoRefused: { USER: 403 },
  },
  'GET /api/users/extension/groups/:id/members': {
    guard: 'bearer',
    permission: 'org:members:read',
    call: (c) => ({ method: 'GET', url: `/api/users/extension/groups/${c.riverside}/members?variant=archived` }),
    otherOrganisation: 404,
  },
  'GET /api/users/extension/groups/:id/member-search': {
    guard: 'bearer',
    permission: 'org:members:read',
    call: (c) => ({ method: 'GET', url: `/api/users/extension/groups/${c.riverside}/member-search?term=test` }),
    otherOrganisation: 404,
  },
  'GET /api/users/search/groups': {
    guard: 'bearer',
    permission: 'org:read',
    call: () => ({ method: 'GET', url: '/api/users/search/groups?term=Riverside' }),
  },
  'PATCH /api/users/users/:id': {
    guard: 'bearer',
    permission: 'account:update',
    call: (c) => ({ method: 'PATCH', url: `/api/users/users/${c.student.userId}`, payload: { given_name: 'Changed' } }),
    otherOrganisation: 404,
    alsoRefused: { USER: 404, ADMIN: 404, SUPER_ADMIN: 404 },
  },
  'DELETE /api/users/users/:id': {
    guard: 'bearer',
    permission: 'users:delete',
    call: (c) => ({ method: 'DELETE', url: `/api/users/users/${c.student.userId}` }),
  },
  'GET /api/users/users/:id': {
    guard: 'bearer',
    permission: 'users:read-all',
    call: (c) => ({ method: 'GET', url: `/api/users/users/${c.student.userId}` }),
  },
  'POST /api/users/users/:id/move': {
    guard: 'bearer',
    permission: 'users:move',
    call: (c) => ({ method: 'POST', url: `/api/users/users/${c.instructor.userId}/move`, payload: { orgId: c.riverside } }),
  },
  'GET /api/users/organizations': {
    guard: 'bearer',
    permission: 'access:console',
    call: () => ({ method: 'GET', url: '/api/users/organizations?search=Riverside' }),
  },
  'GET /api/users/users': {
    guard: 'bearer',
    permission: 'org:members:read',
    // Not tied to one organisation: others get only their own organisations' people (users module tests).
    call: (c) => ({ method: 'GET', url: `/api/users/users?user_id=${c.student.userId}` }),
  },
  'GET /api/users/fetchall/users': {
    guard: 'bearer',
    permission: 'org:members:read',
    // Without orgId only the provider (users:read-all) may call it (users module tests).
    call: (c) => ({ method: 'GET', url: `/api/users/fetchall/users?orgId=${c.riverside}` }),
    otherOrganisation: 404,
  },
  'GET /api/users/search/users': {
    guard: 'bearer',
    permission: 'org:members:read',
    // Without orgId only the provider (users:read-all) may call it (users module tests).
    call: (c) => ({ method: 'GET', url: `/api/users/search/users?term=test&orgId=${c.riverside}` }),
    otherOrganisation: 404,
  },
  'GET /api/users/archived-users': {
    guard: 'bearer',
    permission: 'org:members:read',
    call: (c) => ({ method: 'GET', url: `/api/users/archived-users?orgId=${c.riverside}` }),
    otherOrganisation: 404,
  },
  'POST /api/users/account/change-password': {
    guard: 'bearer',
    permission: 'account:update',
    call: () => ({
      method: 'POST',
      url: '/api/users/account/change-password',
      payload: { oldPassword: 'Wrong-1-x', newPassword: 'Whatever-2-y' },
    }),
  },
  'GET /api/users/account/sessions': {
    guard: 'bearer',
    permission: 'signed-in',
    call: () => ({ method: 'GET', url: '/api/users/account/sessions' }),
  },
  // Another person's session is not found; the student's own is refused as current (sessions.routes.test.ts).
  'DELETE /api/users/account/sessions/:id': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({ method: 'DELETE', url: `/api/users/account/sessions/${c.student.payload.sid}` }),
    otherOrganisation: 404,
    alsoRefused: { USER: 404, ADMIN: 404, SUPER_ADMIN: 404 },
  },
  'POST /api/users/account/sessions/sign-out-others': {
    guard: 'bearer',
    permission: 'signed-in',
    call: () => ({ method: 'POST', url: '/api/users/account/sessions/sign-out-others' }),
  },
  'POST /api/users/extension/groups/:id/members/:userId/sign-out': {
    guard: 'bearer',
    permission: 'org:users:sign-out',
    call: (c) => ({ method: 'POST', url: `/api/users/extension/groups/${c.riverside}/members/${c.student.userId}/sign-out` }),
    otherOrganisation: 404,
  },
  'GET /api/users/extension/groups/:id/two-factor-requirement': {
    guard: 'bearer',
    permission: 'org:two-factor:require',
    call: (c) => ({ method: 'GET', url: `/api/users/extension/groups/${c.riverside}/two-factor-requirement` }),
    otherOrganisation: 404,
  },
  'PUT /api/users/extension/groups/:id/two-factor-requirement': {
    guard: 'bearer',
    permission: 'org:two-factor:require',
    call: (c) => ({
      method: 'PUT',
      url: `/api/users/extension/groups/${c.riverside}/two-factor-requirement`,
      payload: { roles: [] },
    }),
    otherOrganisation: 404,
  },
  'POST /api/users/account/scenario-summary': {
    guard: 'bearer',
    permission: 'access:console',
    call: () => ({ method: 'POST', url: '/api/users/account/scenario-summary?showAllUsers=true' }),
  },
  'POST /api/users/invites/pending': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({ method: 'POST', url: '/api/users/invites/pending', payload: { email: c.student.payload.email } }),
    otherOrganisation: 404,
    alsoRefused: { USER: 404, ADMIN: 404 },
  },
  'GET /api/users/invites/user/:userId': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({ method: 'GET', url: `/api/users/invites/user/${c.student.userId}` }),
    otherOrganisation: 404,
    alsoRefused: { USER: 404, ADMIN: 404 },
  },
  'POST /api/users/invites/dismiss/:inviteId': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({ method: 'POST', url: `/api/users/invites/dismiss/${c.studentInviteId}` }),
    otherOrganisation: 404,
    alsoRefused: { USER: 404, ADMIN: 404, SUPER_ADMIN: 404 },
  },
  'POST /api/users/invitations/decline': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({ method: 'POST', url: '/api/users/invitations/decline', payload: { inviteId: c.studentInviteId } }),
    otherOrganisation: 404,
    alsoRefused: { USER: 404, ADMIN: 404, SUPER_ADMIN: 404 },
  },
  'POST /api/users/invitations/invite': {
    guard: 'bearer',
    permission: 'org:invite',
    call: (c) => ({
      method: 'POST',
      url: '/api/users/invitations/invite',
      payload: {
        users: [{ email: 'matrix-invitee@example.test', role: 'STUDENT' }],
        org: c.riverside,
        throughSubscription: false,
      },
    }),
    otherOrganisation: 404,
  },
  'GET /api/users/invites/org/:id': {
    guard: 'bearer',
    permission: 'org:members:read',
    call: (c) => ({ method: 'GET', url: `/api/users/invites/org/${c.riverside}` }),
    otherOrganisation: 404,
  },
  'POST /api/users/invites/org/:id/addresses': {
    guard: 'bearer',
    permission: 'org:invite',
    call: (c) => ({
      method: 'POST',
      url: `/api/users/invites/org/${c.riverside}/addresses`,
      payload: { emails: [c.student.payload.email] },
    }),
    otherOrganisation: 404,
  },
  'DELETE /api/users/invites/org/:id': {
    guard: 'bearer',
    permission: 'org:invite',
    call: (c) => ({
      method: 'DELETE',
      url: `/api/users/invites/org/${c.riverside}?email=${encodeURIComponent(c.student.payload.email)}`,
    }),
    otherOrganisation: 404,
  },
  'POST /api/users/invites/org/:id/resend': {
    guard: 'bearer',
    permission: 'org:invite',
    call: (c) => ({
      method: 'POST',
      url: `/api/users/invites/org/${c.riverside}/resend?email=${encodeURIComponent(c.student.payload.email)}`,
    }),
    otherOrganisation: 404,
  },
  'POST /api/users/invitations/finish-invite': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({
      method: 'POST',
      url: '/api/users/invitations/finish-invite',
      payload: { inviteId: c.studentInviteId, email: c.student.payload.email },
    }),
    otherOrganisation: 404,
    alsoRefused: { USER: 404, ADMIN: 404, SUPER_ADMIN: 404 },
  },
  'GET /api/users/support-contact': {
    guard: 'bearer',
    permission: 'signed-in',
    call: () => ({ method: 'GET', url: '/api/users/support-contact' }),
  },
  'GET /api/users/notifications': {
    guard: 'bearer',
    permission: 'signed-in',
    call: () => ({ method: 'GET', url: '/api/users/notifications' }),
  },
  'GET /api/users/notifications/pending': {
    guard: 'bearer',
    permission: 'signed-in',
    call: () => ({ method: 'GET', url: '/api/users/notifications/pending' }),
  },
  'POST /api/users/notifications/:id/read': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({ method: 'POST', url: `/api/users/notifications/${c.notificationId}/read` }),
    otherOrganisation: 404,
    alsoRefused: { STUDENT: 404 },
  },
  'POST /api/users/notifications/:id/unread': {
    guard: 'bearer',
    permission: 'signed-in',
    call: (c) => ({ method: 'POST', url: `/api/users/notifications/${c.notificationId}/unread` }),
    otherOrganisation: 404,
    alsoRefused: { STUDENT: 404 },
  },
  'POST /api/users/notifications': {
    guard: 'bearer',
    permission: 'notifications:send',
    call: (c) => ({
      method: 'POST',
      url: '/api/users/notifications',
      payload: { title: 'Matrix', message: 'Hello', targets: [{ principalType: 'USER', principalId: c.student.userId }] },
    }),
  },
  'GET /api/users/notifications/sent': {
    guard: 'bearer',
    permission: 'notifications:send',
    call: () => ({ method: 'GET', url: '/api/users/notifications/sent' }),
  },
  'GET /api/users/tutorials': {
    guard: 'bearer',
    permission: 'org:tutorials:read',
    call: () => ({ method: 'GET', url: '/api/users/tutorials?category=SCENARIO_BUILDER' }),
  },
  'POST /api/users/payment/create-billing-portal-session': {
    guard: 'bearer',
    permission: 'signed-in',
    call: () => ({ method: 'POST', url: '/api/users/payment/create-billing-portal-session' }),
  },
  'GET /api/cases/:id': {
    guard: 'bearer',
    permission: 'cases:read',
    call: (c) => ({ method: 'GET', url: `/api/cases/${c.caseId}`, headers: { 'x-case-access-code': CASE_ACCESS_CODE } }),
    otherOrganisation: 404,
  },
  // Another deployment's Cases tool: this deployment's access code, no user (case-copy.test.ts).
  'POST /api/cases/peer/dump': { guard: 'peer-code' },
  'POST /api/cases/peer/restore': { guard: 'peer-code' },
  'POST /api/cases/peer/remove': { guard: 'peer-code' },
  'GET /api/cases/peer/:id': { guard: 'peer-code' },
  'GET /api/cases/peer/search/cases': { guard: 'peer-code' },
  'GET /api/cases/peer/search/organisations': { guard: 'peer-code' },
  'GET /api/cases/peer/media/:id': { guard: 'peer-code' },
  'POST /api/cases/peer/media': { guard: 'peer-code' },
  'POST /api/cases/peer/media/digests': { guard: 'peer-code' },
  'POST /api/cases/peer/media/remove': { guard: 'peer-code' },
  'GET /api/cases/tool/environments': {
    guard: 'bearer',
    permission: 'cases:copy',
    call: () => ({ method: 'GET', url: '/api/cases/tool/environments' }),
  },
  'GET /api/cases/tool/cases': {
    guard: 'bearer',
    permission: 'cases:copy',
    call: () => ({ method: 'GET', url: '/api/cases/tool/cases?env=dev&q=chest' }),
  },
  'GET /api/cases/tool/organisations': {
    guard: 'bearer',
    permission: 'cases:copy',
    call: () => ({ method: 'GET', url: '/api/cases/tool/organisations?env=dev&q=river' }),
  },
  'POST /api/cases/tool/copy': {
    guard: 'bearer',
    permission: 'cases:copy',
    call: (c) => ({
      method: 'POST',
      url: '/api/cases/tool/copy',
      payload: { source: 'dev', target: 'staging', caseIds: [c.caseId], targetOrg: c.riverside },
    }),
  },
  'POST /api/cases/tool/diff': {
    guard: 'bearer',
    permission: 'cases:copy',
    call: (c) => ({
      method: 'POST',
      url: '/api/cases/tool/diff',
      payload: { envA: 'dev', idA: c.caseId, envB: 'staging', idB: c.caseId },
    }),
  },
  // Each operation checks its own permission and the case's access lists (cases.graphql.test.ts).
  'POST /api/graphql': {
    guard: 'bearer',
    permission: 'cases:read',
    call: (c) => ({ method: 'POST', url: '/api/graphql', payload: { query: `{ caseConfiguration(id: "${c.caseId}") { id } }` } }),
  },
};

let t: TestApp;
let ctx: Ctx;
/** A member of Riverside for each role, but the super admin, who belongs to the provider. */
const sessions = {} as Record<Role, Session>;
/** The admin and key owner of another organisation. */
let outsider: Session;
/** A super admin who signed out: every permission, but the session ended. */
let signedOut: Session;
/** An admin of Riverside removed from it by another admin. */
let removedAdmin: Session;
/** An admin of Riverside demoted to student after signing in. */
let demotedAdmin: Session;
/** Northgate Nursing School, the outsider's organisation. */
let northgate: string;
/** Riverside's key owner (an admin there). */
let riversideOwnerId: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { CASE_ACCESS_CODE } });
  // The provider is a dev organisation, where scenario summaries are available to its super admins.
  const provider = await insertGroup(t.db, { name: 'PatientSim Provider', seats: 100, dev: true });
  // Riverside's key owner never signs in: the admin below holds the role, not the key.
  const riversideOwner = await insertUser(t.db, { role: 'ADMIN' });
  riversideOwnerId = riversideOwner.id;
  const riverside = await insertGroup(t.db, { name: 'Riverside EMS Academy', seats: 25, ownerId: riversideOwner.id });
  await addMember(t.db, riverside, riversideOwner.id, 'ADMIN');
  for (const role of ROLES) sessions[role] = await signInNewMember(t, role === 'SUPER_ADMIN' ? provider : riverside, { role });
  const northgateOwner = await insertUser(t.db, { role: 'ADMIN', productType: 'NURSING' });
  northgate = await insertGroup(t.db, {
    name: 'Northgate Nursing School',
    productType: 'NURSING',
    seats: 10,
    ownerId: northgateOwner.id,
  });
  await addMember(t.db, northgate, northgateOwner.id, 'ADMIN');
  outsider = await signInAs(t, northgateOwner.email, northgateOwner.password);

  // The student's pending invitation to Riverside, and an announcement for all instructors.
  const studentInvite = buildInvitation({
    orgId: riverside,
    email: sessions.STUDENT.payload.email,
    role: 'STUDENT',
    inviterId: sessions.ADMIN.userId,
  });
  await t.db.insert(invitation).values(studentInvite);
  const forInstructors = buildNotification({ type: 'INFO', title: 'New EMS templates', senderId: sessions.SUPER_ADMIN.userId });
  await t.db.insert(notification).values(forInstructors);
  await t.db.insert(notificationTarget).values(
    buildNotificationTarget({
      notificationId: forInstructors.id,
      principalType: 'GROUP',
      principalId: 'ALL_INSTRUCTORS',
      label: 'All instructors',
    }),
  );

  // A second session of the super admin above: signing it out leaves the first one valid.
  signedOut = await signInAs(t, sessions.SUPER_ADMIN.payload.email, TEST_PASSWORD);
  expect((await signedOut.client.post('/api/users/auth/sign-out')).statusCode).toBe(200);
  const removed = await insertMember(t.db, riverside, { role: 'ADMIN' });
  removedAdmin = await signInAs(t, removed.email, removed.password);
  const removal = await sessions.ADMIN.client.request({
    method: 'DELETE',
    url: `/api/users/extension/groups/${riverside}/members`,
    payload: [removed.id],
  });
  expect(removal.statusCode).toBe(200);
  const demoted = await insertMember(t.db, riverside, { role: 'ADMIN' });
  demotedAdmin = await signInAs(t, demoted.email, demoted.password);
  await t.db.update(groupMember).set({ role: 'STUDENT' }).where(eq(groupMember.userId, demoted.id));
  await t.db.update(user).set({ role: 'STUDENT' }).where(eq(user.id, demoted.id));
  const riversideCase = buildCase({ ownerId: sessions.USER.userId, ownerOrgId: riverside });
  await t.db.insert(caseConfiguration).values(riversideCase);
  t.app.cache.clear();
  ctx = {
    caseId: riversideCase.id,
    riverside,
    student: sessions.STUDENT,
    instructor: sessions.USER,
    studentInviteId: studentInvite.id,
    notificationId: forInstructors.id,
  };
});

describe('authorization matrix', () => {
  it('lists every /api/users and /api/cases route and the GraphQL endpoint, and only existing ones', () => {
    const isApi = (url: string) => url.startsWith('/api/users/') || url.startsWith('/api/cases/') || url === '/api/graphql';
    const registered = [
      ...new Set(t.routes.filter((r) => isApi(r.url) && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`)),
    ].sort();
    expect(registered.length).toBeGreaterThan(20);
    expect(registered).toEqual(Object.keys(MATRIX).sort());
  });

  it('builds the resources the calls name, so that a refusal with 404 is about the caller', async () => {
    const keyOwner = await sessions.ADMIN.client.get(`/api/users/extension/groups/${ctx.riverside}/key-owner`);
    expect(keyOwner.statusCode).toBe(200);
    const caseDocument = await ctx.student.client.get(`/api/cases/${ctx.caseId}`, { 'x-case-access-code': CASE_ACCESS_CODE });
    expect(caseDocument.statusCode).toBe(200);
    expect(keyOwner.json().user_id).not.toBe(sessions.ADMIN.userId);
    const groups = await sessions.SUPER_ADMIN.client.get(`/api/users/extension/users/${ctx.instructor.userId}/groups`);
    expect(groups.json().map((row: { _id: string }) => row._id)).toEqual([ctx.riverside]);
    const invites = await ctx.student.client.get(`/api/users/invites/user/${ctx.student.userId}`);
    expect(invites.json().data.invites.map((row: { _id: string }) => row._id)).toEqual([ctx.studentInviteId]);
    const notifications = await ctx.instructor.client.get('/api/users/notifications');
    expect(notifications.json().data.notifications.map((row: { _id: string }) => row._id)).toEqual([ctx.notificationId]);
  });

  for (const [key, entry] of Object.entries(MATRIX)) {
    if (entry.guard !== 'bearer') continue;
    describe(key, () => {
      it('refuses callers without a valid token (401)', async () => {
        const call = entry.call(ctx);
        const response = await t.app.inject({
          method: call.method,
          url: call.url,
          ...(call.payload === undefined ? {} : { payload: call.payload as object }),
          ...(call.headers ? { headers: call.headers } : {}),
        });
        expect(response.statusCode).toBe(401);
        expect(response.json().code).toBe('UNAUTHENTICATED');
      });

      for (const role of ROLES) {
        const allowed = holds(role, entry.permission);
        const expected = !allowed ? 403 : (entry.alsoRefused?.[role] ?? null);
        if (expected === null) continue;
        it(`refuses ${role} with ${expected}`, async () => {
          const call = entry.call(ctx);
          const response = await sessions[role].client.request({
            method: call.method,
            url: call.url,
            ...(call.payload === undefined ? {} : { payload: call.payload as object }),
            ...(call.headers ? { headers: call.headers } : {}),
          });
          expect(response.statusCode).toBe(expected);
        });
      }

      it('refuses a token whose session ended (401), and one of a removed admin', async () => {
        const call = entry.call(ctx);
        const options = {
          method: call.method,
          url: call.url,
          ...(call.payload === undefined ? {} : { payload: call.payload as object }),
          ...(call.headers ? { headers: call.headers } : {}),
        };
        for (const ended of [signedOut, removedAdmin]) {
          const response = await ended.client.request(options);
          expect(response.statusCode).toBe(401);
          expect(response.json().code).toBe('SESSION_ENDED');
        }
      });

      const asStudent = !holds('STUDENT', entry.permission) ? 403 : (entry.alsoRefused?.STUDENT ?? null);
      if (asStudent !== null) {
        it(`refuses an admin demoted to student with ${asStudent}, whatever the token says`, async () => {
          const call = entry.call(ctx);
          const response = await demotedAdmin.client.request({
            method: call.method,
            url: call.url,
            ...(call.payload === undefined ? {} : { payload: call.payload as object }),
            ...(call.headers ? { headers: call.headers } : {}),
          });
          expect(response.statusCode).toBe(asStudent);
        });
      }

      if (entry.otherOrganisation) {
        it(`refuses an admin of another organisation with ${entry.otherOrganisation}`, async () => {
          const call = entry.call(ctx);
          const response = await outsider.client.request({
            method: call.method,
            url: call.url,
            ...(call.payload === undefined ? {} : { payload: call.payload as object }),
            ...(call.headers ? { headers: call.headers } : {}),
          });
          expect(response.statusCode).toBe(entry.otherOrganisation);
        });
      }
    });
  }
});

/**
 * The changes a View-As-User token may make (decision 0037), every other route whose method writes
 * refusing it: POSTs that only read, and the end of the view itself.
 */
const VIEW_AS_ALLOWED: Record<string, 'read' | 'write'> = {
  'POST /api/users/invites/pending': 'read',
  // Queries only: a mutation is refused by the endpoint (view-as.routes.test.ts).
  'POST /api/graphql': 'read',
  'POST /api/users/auth/loginAs/end': 'write',
};

describe('authorization matrix through a View-As-User token', () => {
  let view: ReturnType<typeof createClient>;
  beforeAll(async () => {
    const started = await sessions.SUPER_ADMIN.client.post('/api/users/auth/loginAs', {
      orgId: ctx.riverside,
      email: sessions.ADMIN.payload.email,
    });
    expect(started.statusCode, started.body).toBe(200);
    view = createClient(t.app, { ip: '10.95.0.1' });
    view.setBearer(started.json().data.idToken);
  });

  for (const [key, entry] of Object.entries(MATRIX)) {
    // The view's own end comes last, on its own: it ends the view.
    if (entry.guard !== 'bearer' || key.startsWith('GET ') || key === 'POST /api/users/auth/loginAs/end') continue;
    const allowed = VIEW_AS_ALLOWED[key];
    it(`${allowed ? 'lets through' : 'refuses with VIEW_AS_READ_ONLY'}: ${key}`, async () => {
      const call = entry.call(ctx);
      const response = await view.request({
        method: call.method,
        url: call.url,
        ...(call.payload === undefined ? {} : { payload: call.payload as object }),
        ...(call.headers ? { headers: call.headers } : {}),
      });
      if (allowed) expect(response.json().code).not.toBe('VIEW_AS_READ_ONLY');
      else expect(response.json(), response.body).toMatchObject({ statusCode: 403, code: 'VIEW_AS_READ_ONLY' });
    });
  }

  it('lets the view end itself', async () => {
    expect((await view.post('/api/users/auth/loginAs/end', {})).statusCode).toBe(200);
    expect((await view.get(`/api/users/extension/groups/${ctx.riverside}`)).statusCode).toBe(401);
  });
});

/**
 * PATCH /users/{id}?orgId= shares its path with the own profile's PATCH /users/{id} (a route
 * constraint on the query keeps them apart), so the table above checks only the latter. Here the
 * organisation-side edit, with an e-mail change, for every pair of the actor's role and the
 * member's, with the member in Riverside alone or in Northgate too (decision 0033): only a member
 * of Riverside alone, ranked below the actor, owning no organisation and without a provider role
 * can be moved to another address.
 */
describe('organisation-side e-mail edit (PATCH /api/users/users/:id?orgId=)', () => {
  type Target = { role: Role; isKeyOwner?: boolean; isProvider?: boolean };
  const student: Target = { role: 'STUDENT' };
  const TARGETS: Record<string, Target> = {
    'a student': student,
    'an instructor': { role: 'USER' },
    'an admin': { role: 'ADMIN' },
    'an admin who is key owner of an organisation': { role: 'ADMIN', isKeyOwner: true },
    'a super admin who joined as a student': { role: 'STUDENT', isProvider: true },
  };
  const PLACES = { 'in Riverside alone': false, 'in Riverside and Northgate': true } as const;

  async function insertTarget(target: Target, isElsewhereToo: boolean) {
    const person = await insertUser(t.db, { role: target.isProvider ? 'SUPER_ADMIN' : target.role });
    await addMember(t.db, ctx.riverside, person.id, target.role);
    if (isElsewhereToo) await addMember(t.db, northgate, person.id, target.role);
    if (target.isKeyOwner) await insertGroup(t.db, { name: `Owned by ${person.id}`, ownerId: person.id });
    t.app.cache.clear();
    return person;
  }

  /** What the rules say, restated: [status, code]. */
  function expected(actor: Role, target: Target, isElsewhereToo: boolean): [number, string | null] {
    if (!hasPermission(actor, 'org:users:edit')) return [403, 'FORBIDDEN'];
    if (ROLE_RANK[target.role] > ROLE_RANK[actor]) return [403, 'FORBIDDEN'];
    const isInReach = ROLE_RANK[target.role] < ROLE_RANK[actor] && !isElsewhereToo && !target.isKeyOwner && !target.isProvider;
    return isInReach ? [200, null] : [403, 'MEMBER_EMAIL_LOCKED'];
  }

  const edit = (session: Session | null, userId: string) => {
    const options = {
      method: 'PATCH' as const,
      url: `/api/users/users/${userId}?orgId=${ctx.riverside}`,
      payload: { email: `moved-${userId}@example.test` },
    };
    return session ? session.client.request(options) : t.app.inject(options);
  };

  for (const actor of ROLES) {
    for (const [targetName, target] of Object.entries(TARGETS)) {
      for (const [place, isElsewhereToo] of Object.entries(PLACES)) {
        const [status, code] = expected(actor, target, isElsewhereToo);
        it(`${actor} moving a ${targetName} ${place}: ${status}${code ? ` ${code}` : ''}`, async () => {
          const person = await insertTarget(target, isElsewhereToo);
          const response = await edit(sessions[actor], person.id);
          expect(response.statusCode).toBe(status);
          if (code) expect(response.json().code).toBe(code);
          const row = await findUser(t.db, person.id);
          if (status === 200) expect(row).toMatchObject({ email: `moved-${person.id}@example.test`, emailVerified: false });
          else expect(row).toMatchObject({ email: person.email, emailVerified: true });
        });
      }
    }
    const [ownerStatus, ownerCode] = expected(actor, { role: 'ADMIN', isKeyOwner: true }, false);
    it(`${actor} moving Riverside's key owner: ${ownerStatus} ${ownerCode ?? ''}`, async () => {
      const before = await findUser(t.db, riversideOwnerId);
      const response = await edit(sessions[actor], riversideOwnerId);
      expect([response.statusCode, response.json().code]).toEqual([ownerStatus, ownerCode]);
      expect(await findUser(t.db, riversideOwnerId)).toMatchObject({ email: before?.email, emailVerified: true });
    });
  }

  it('refuses an admin of another organisation (404), callers without a token (401), ended sessions (401) and a demoted admin (403)', async () => {
    const person = await insertTarget(student, false);
    expect((await edit(outsider, person.id)).statusCode).toBe(404);
    expect((await edit(null, person.id)).json().code).toBe('UNAUTHENTICATED');
    for (const ended of [signedOut, removedAdmin]) expect((await edit(ended, person.id)).json().code).toBe('SESSION_ENDED');
    expect((await edit(demotedAdmin, person.id)).statusCode).toBe(403);
    expect(await findUser(t.db, person.id)).toMatchObject({ email: person.email, emailVerified: true });
  });
});
