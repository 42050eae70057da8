import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { signInDemo } from '../../../test/demo-client.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ seed: true });
});

describe('notifications', () => {
  it('gives student2 three unread popups, newest first, and read/unread moves them', async () => {
    const { client } = await signInDemo(t, 'student2@demo.test');
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
    const instructor = await signInDemo(t, 'instructor@demo.test');
    const info = (await instructor.client.get('/api/users/notifications/pending')).json().data.notifications;
    expect(info.some((n: { type: string }) => n.type === 'INFO')).toBe(true);
    const student = await signInDemo(t, 'student@demo.test');
    const none = (await student.client.get('/api/users/notifications')).json().data.notifications;
    expect(none.some((n: { type: string }) => n.type === 'INFO')).toBe(false);
  });

  it("refuses marking someone else's notification, and callers without a token", async () => {
    const owner = await signInDemo(t, 'student2@demo.test');
    const [first] = (await owner.client.get('/api/users/notifications/pending')).json().data.notifications;
    const other = await signInDemo(t, 'student@demo.test');
    expect((await other.client.post(`/api/users/notifications/${first._id}/read`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/notifications/pending' })).statusCode).toBe(401);
  });
});
