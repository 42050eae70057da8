/**
 * A subscribed member (joined through a subscribed invitation) reaches the organisation's cases
 * only while their own subscription is active (decision 0035); they keep their account and
 * membership either way.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { caseConfiguration } from '../../db/schema/cases.js';
import { groupMember } from '../../db/schema/groups.js';
import { notification, notificationTarget } from '../../db/schema/notifications.js';
import { buildCase, buildNotification, buildNotificationTarget } from '../../seed/builders.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import type { Client } from '../../../test/client.js';
import { insertGroup, insertUser, signInNewMember } from '../../../test/fixtures.js';
import { signInAs } from '../../../test/sign-in-client.js';

let t: TestApp;
let orgId: string;
let caseId: string;
beforeAll(async () => {
  t = await buildTestApp();
  orgId = await insertGroup(t.db, { name: 'Subscribed Academy', seats: 5 });
  const author = await signInNewMember(t, orgId, { role: 'USER' });
  const row = buildCase({ name: 'Academy Case', ownerId: author.userId, ownerOrgId: orgId });
  await t.db.insert(caseConfiguration).values(row);
  caseId = row.id;
  const notice = buildNotification({ title: 'Academy news' });
  await t.db.insert(notification).values(notice);
  await t.db
    .insert(notificationTarget)
    .values(buildNotificationTarget({ notificationId: notice.id, principalType: 'GROUP', principalId: orgId }));
});

/** A member of the academy with their own subscription in `subscriptionStatus`, signed in. */
async function signInMember({ subscribed, subscriptionStatus }: { subscribed: boolean; subscriptionStatus: string | null }) {
  const account = await insertUser(t.db, { role: 'STUDENT', subscriptionStatus });
  await t.db.insert(groupMember).values({ groupId: orgId, userId: account.id, role: 'STUDENT', subscribed });
  return signInAs(t, account.email, account.password);
}

async function visibleCases(client: Client) {
  const list = await client.post('/api/graphql', { query: '{ caseConfigurations { totalCount items { name } } }' });
  const one = await client.post('/api/graphql', {
    query: 'query($id: ID!) { caseConfiguration(id: $id) { name } }',
    variables: { id: caseId },
  });
  expect(list.statusCode).toBe(200);
  return {
    listed: list.json().data.caseConfigurations.items.map((item: { name: string }) => item.name) as string[],
    read: one.json().data.caseConfiguration?.name ?? null,
  };
}

describe('the organisation’s content for a subscribed member', () => {
  it.each([
    ['active', true],
    ['trialing', true],
    ['past_due', false],
    ['unpaid', false],
    ['canceled', false],
    ['incomplete', false],
    [null, false],
  ] as const)('with a subscription %s: reaches the cases: %s', async (subscriptionStatus, reaches) => {
    const { client, payload } = await signInMember({ subscribed: true, subscriptionStatus });
    expect(await visibleCases(client)).toEqual(
      reaches ? { listed: ['Academy Case'], read: 'Academy Case' } : { listed: [], read: null },
    );
    expect(payload.app_metadata.subscriptionActive).toBe(reaches);
  });

  it('keeps the account and the membership without a subscription: the organisation and its notifications stay', async () => {
    const { client, userId, payload } = await signInMember({ subscribed: true, subscriptionStatus: null });
    expect(payload.org).toBe(orgId);
    expect(payload.app_metadata.subscribedOrgs).toEqual([orgId]);
    const groups = await client.get(`/api/users/extension/users/${userId}/groups`);
    expect(groups.json().map((g: { _id: string }) => g._id)).toEqual([orgId]);
    const notifications = await client.get('/api/users/notifications/pending');
    expect(notifications.json().data.notifications.map((n: { title: string }) => n.title)).toContain('Academy news');
  });

  it('asks nothing of a seat-holding member: the seat gives the content', async () => {
    const { client, payload } = await signInMember({ subscribed: false, subscriptionStatus: null });
    expect(await visibleCases(client)).toEqual({ listed: ['Academy Case'], read: 'Academy Case' });
    expect(payload.app_metadata.subscriptionActive).toBe(false);
  });
});
