import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@patientsim/domain/roles/roles';
import { notification, notificationTarget } from '../../db/schema/notifications.js';
import { buildNotification, buildNotificationTarget, type NewNotification } from '../../seed/builders.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { insertGroup, signInNewMember } from '../../../test/fixtures.js';

let t: TestApp;
let orgId: string;
beforeAll(async () => {
  t = await buildTestApp();
  orgId = await insertGroup(t.db);
});

const member = (role: Role) => signInNewMember(t, orgId, { role });

/** Inserts a notification addressed to one principal; answers its id. */
async function send(
  target: { principalType: 'GROUP' | 'USER'; principalId: string },
  values: Partial<NewNotification> = {},
): Promise<string> {
  const row = buildNotification(values);
  await t.db.insert(notification).values(row);
  await t.db.insert(notificationTarget).values(buildNotificationTarget({ notificationId: row.id, ...target }));
  return row.id;
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60 * 1000);

describe('notifications', () => {
  it('gives a student three unread popups, newest first, and read/unread moves them', async () => {
    const { client, userId } = await member('STUDENT');
    // Sent out of order: the answer sorts by date.
    for (const hours of [2, 1, 3])
      await send({ principalType: 'USER', principalId: userId }, { type: 'POPUP_MESSAGE', date: hoursAgo(hours) });
    const pending = (await client.get('/api/users/notifications/pending')).json().data.notifications;
    expect(pending).toHaveLength(3);
    expect(pending.every((n: { type: string; read: boolean }) => n.type === 'POPUP_MESSAGE' && !n.read)).toBe(true);
    const dates = pending.map((n: { date: string }) => Date.parse(n.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);

    expect((await client.post(`/api/users/notifications/${pending[0]._id}/read`)).statusCode).toBe(200);
    expect((await client.get('/api/users/notifications/pending')).json().data.notifications).toHaveLength(2);
    const all = (await client.get('/api/users/notifications')).json().data.notifications;
    expect(all.find((n: { _id: string }) => n._id === pending[0]._id)?.read).toBe(true);
    expect((await client.post(`/api/users/notifications/${pending[0]._id}/unread`)).statusCode).toBe(200);
    expect((await client.get('/api/users/notifications/pending')).json().data.notifications).toHaveLength(3);
  });

  it('reaches instructors through ALL_INSTRUCTORS, not students', async () => {
    const infoId = await send({ principalType: 'GROUP', principalId: 'ALL_INSTRUCTORS' }, { type: 'INFO' });
    const instructor = await member('USER');
    const info = (await instructor.client.get('/api/users/notifications/pending')).json().data.notifications;
    expect(info.some((n: { _id: string; type: string }) => n._id === infoId && n.type === 'INFO')).toBe(true);
    const student = await member('STUDENT');
    const none = (await student.client.get('/api/users/notifications')).json().data.notifications;
    expect(none.some((n: { type: string }) => n.type === 'INFO')).toBe(false);
  });

  it("refuses marking someone else's notification, and callers without a token", async () => {
    const owner = await member('STUDENT');
    await send({ principalType: 'USER', principalId: owner.userId }, { type: 'POPUP_MESSAGE' });
    const [first] = (await owner.client.get('/api/users/notifications/pending')).json().data.notifications;
    const other = await member('STUDENT');
    expect((await other.client.post(`/api/users/notifications/${first._id}/read`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/notifications/pending' })).statusCode).toBe(401);
  });
});
