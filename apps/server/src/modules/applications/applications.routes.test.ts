import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvent } from '../../db/schema/audit.js';
import { oauthClient } from '../../db/schema/oauth.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { insertUser } from '../../../test/fixtures.js';
import { signInAs, type SignedInSession } from '../../../test/sign-in-client.js';

/** The access area's Applications (decision 0065): super admins only, the secret shown once. */

let t: TestApp;
let superAdmin: SignedInSession;
const sessions: Partial<Record<'ADMIN' | 'USER' | 'STUDENT', SignedInSession>> = {};

const confidentialApp = {
  name: 'Scenario builder',
  type: 'confidential',
  redirectUris: ['https://builder.example.test/callback', 'http://localhost:5174/callback'],
  postLogoutRedirectUris: ['https://builder.example.test/'],
};

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await insertUser(t.db, { role: 'SUPER_ADMIN' });
  superAdmin = await signInAs(t, admin.email, admin.password);
  for (const role of ['ADMIN', 'USER', 'STUDENT'] as const) {
    const person = await insertUser(t.db, { role });
    sessions[role] = await signInAs(t, person.email, person.password);
  }
});

describe('registering an application', () => {
  it('returns the client secret once, keeps only its hash, lists it without it, and audits it', async () => {
    const registered = await superAdmin.client.post('/api/users/applications', confidentialApp);
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.headers['cache-control']).toBe('no-store');
    const { application, clientSecret } = registered.json();
    expect(application).toMatchObject({
      name: 'Scenario builder',
      type: 'confidential',
      redirectUris: confidentialApp.redirectUris,
      postLogoutRedirectUris: confidentialApp.postLogoutRedirectUris,
    });
    expect(clientSecret).toEqual(expect.any(String));
    expect(clientSecret.length).toBeGreaterThan(20);

    const [row] = await t.db.select().from(oauthClient).where(eq(oauthClient.clientId, application.clientId));
    expect(row?.clientSecret).not.toContain(clientSecret);
    expect(row).toMatchObject({ skipConsent: true, enableEndSession: true, tokenEndpointAuthMethod: 'client_secret_basic' });

    const list = await superAdmin.client.get('/api/users/applications');
    expect(list.statusCode).toBe(200);
    expect(list.json().applications).toEqual(expect.arrayContaining([application]));
    expect(list.body).not.toContain(clientSecret);
    expect(list.body).not.toContain('clientSecret');

    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.action, 'application.register'));
    expect(events).toEqual(
      expect.arrayContaining([expect.objectContaining({ actorId: superAdmin.userId, targetName: 'Scenario builder' })]),
    );
  });

  it('registers a public application without a secret', async () => {
    const registered = await superAdmin.client.post('/api/users/applications', {
      name: 'Assignments',
      type: 'public',
      redirectUris: ['https://assignments.example.test/callback'],
    });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json()).toMatchObject({ application: { type: 'public', postLogoutRedirectUris: [] }, clientSecret: null });
  });

  it.each([
    ['no name', { ...confidentialApp, name: ' ' }],
    ['no redirect URI', { ...confidentialApp, redirectUris: [] }],
    ['an http address other than localhost', { ...confidentialApp, redirectUris: ['http://builder.example.test/cb'] }],
    ['an address with a fragment', { ...confidentialApp, redirectUris: ['https://builder.example.test/cb#x'] }],
    ['something else than an address', { ...confidentialApp, redirectUris: ['not a url'] }],
    ['an unknown type', { ...confidentialApp, type: 'secret' }],
    ['a bad post-logout address', { ...confidentialApp, postLogoutRedirectUris: ['javascript:alert(1)'] }],
  ])('refuses %s with 400 JSON', async (_case, body) => {
    const response = await superAdmin.client.post('/api/users/applications', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', message: expect.any(String) });
  });
});

describe('who may manage applications', () => {
  it.each(['ADMIN', 'USER', 'STUDENT'] as const)('refuses %s with 403', async (role) => {
    const client = sessions[role]!.client;
    expect((await client.get('/api/users/applications')).statusCode).toBe(403);
    const post = await client.post('/api/users/applications', confidentialApp);
    expect(post.statusCode).toBe(403);
    expect(post.json()).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    expect((await client.request({ method: 'DELETE', url: '/api/users/applications/abc' })).statusCode).toBe(403);
  });

  it('refuses the signed out with 401', async () => {
    const anonymous = createClient(t.app);
    const response = await anonymous.get('/api/users/applications');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
    expect((await anonymous.post('/api/users/applications', confidentialApp)).statusCode).toBe(401);
  });
});

describe('removing an application', () => {
  it('deletes it, audits it, and answers 404 for one that does not exist', async () => {
    const registered = await superAdmin.client.post('/api/users/applications', { ...confidentialApp, name: 'Old CMS' });
    const { id, clientId } = registered.json().application;
    const removed = await superAdmin.client.request({ method: 'DELETE', url: `/api/users/applications/${id}` });
    expect(removed.statusCode).toBe(200);
    expect(await t.db.select().from(oauthClient).where(eq(oauthClient.clientId, clientId))).toEqual([]);
    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.action, 'application.remove'));
    expect(events).toEqual([expect.objectContaining({ targetId: id, targetName: 'Old CMS' })]);
    const again = await superAdmin.client.request({ method: 'DELETE', url: `/api/users/applications/${id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
