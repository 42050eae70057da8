import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CASE_TEXTS } from '@patientsim/domain/cases/case-list';
import { CASE_COPY_MAX, CASE_PEER_CODE_HEADER, type CaseCopyEvent } from '@patientsim/domain/cases/case-copy.schemas';
import { ROLES, type Role } from '@patientsim/domain/roles/roles';
import { auditEvent } from '../../db/schema/audit.js';
import { caseConfiguration } from '../../db/schema/cases.js';
import { media } from '../../db/schema/tutorials.js';
import { buildCase, buildMedia, type CaseInput } from '../../seed/builders.js';
import { SEED_ASSETS_DIR } from '../../seed/media-assets.js';
import { mediaIdsOf, mediaUrl } from '../media/media.service.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { insertGroup, signInNewMember, viewingAs } from '../../../test/fixtures.js';
import { portableDocument } from '../cases/cases.service.js';

/**
 * The Cases tool between two real deployments: `dev` (this app, in process) and `staging` (a
 * second app listening on a real port, reached over HTTP with its access code).
 */
const DEV_CODE = 'dev-deployment-access-code-0001';
const STAGING_CODE = 'staging-deployment-access-code-0002';
const WRONG_CODE = 'staging-deployment-access-code-0003';

type Session = Awaited<ReturnType<typeof signInNewMember>>;

let dev: TestApp;
let staging: TestApp;
let stagingUrl: string;
let devOrg: string;
let stagingOrg: string;
/** A deployment without CASE_ACCESS_CODE. */
let closed: TestApp;
let closedSuperAdmin: Session;
const as = {} as Record<Role, Session>;

/** A shipped picture on a deployment (as the demo seeds them), and its URL. */
async function insertPicture(t: TestApp, file: string) {
  const row = buildMedia({ path: file, contentType: 'image/png' });
  await t.db.insert(media).values(row);
  return mediaUrl(row.id);
}

/** A case with an avatar and two location pictures, each a file served by `t`. */
async function insertPicturedCase(t: TestApp, input: CaseInput & { files?: [string, string, string] }) {
  const [avatar, start, end] = input.files ?? ['avatars/lily-chen.png', 'scenes/street.png', 'scenes/hospital.png'];
  return insertCase(t, {
    ...input,
    avatar: { id: 'lily', key: 'LILY', name: 'Lily', pictureUrl: await insertPicture(t, avatar) },
    startLocation: { name: 'Street', pictureUrl: await insertPicture(t, start) },
    endLocation: { name: 'Hospital', pictureUrl: await insertPicture(t, end) },
  });
}

/** The new id of the one case a successful copy created. */
function onlyCopyOf(last: CaseCopyEvent | undefined): string {
  expect(last?.type).toBe('done');
  const created = (last as Extract<CaseCopyEvent, { type: 'done' }>).created;
  expect(created).toHaveLength(1);
  return created[0]?.targetId ?? '';
}

const documentOf = async (t: TestApp, id: string) =>
  (await t.db.select().from(caseConfiguration).where(eq(caseConfiguration.id, id)))[0]?.document ?? {};

async function insertCase(t: TestApp, input: CaseInput) {
  const row = buildCase(input);
  await t.db.insert(caseConfiguration).values(row);
  return row.id;
}

const stagingCases = (org: string) => staging.db.select().from(caseConfiguration).where(eq(caseConfiguration.ownerOrgId, org));

async function copy(body: Record<string, unknown>, session: Session = as.SUPER_ADMIN) {
  const response = await session.client.post('/api/cases/tool/copy', body);
  if (response.statusCode !== 200) return { status: response.statusCode, json: response.json(), events: [] as CaseCopyEvent[] };
  expect(response.headers['content-type']).toContain('application/x-ndjson');
  const events = response.body
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CaseCopyEvent);
  return { status: 200, json: null, events, last: events.at(-1) };
}

beforeAll(async () => {
  staging = await buildTestApp({ env: { CASE_ACCESS_CODE: STAGING_CODE, CASE_ENVIRONMENT_NAME: 'staging' } });
  await staging.app.listen({ host: '127.0.0.1', port: 0 });
  stagingUrl = `http://127.0.0.1:${(staging.app.server.address() as AddressInfo).port}`;
  dev = await buildTestApp({
    env: {
      CASE_ACCESS_CODE: DEV_CODE,
      CASE_ENVIRONMENT_NAME: 'dev',
      CASE_ENVIRONMENTS: JSON.stringify({
        staging: { url: stagingUrl, accessCode: STAGING_CODE },
        // The same deployment, configured with a code that is not its own.
        app: { url: stagingUrl, accessCode: WRONG_CODE },
      }),
    },
  });
  const provider = await insertGroup(dev.db, { name: 'Provider', dev: true });
  devOrg = await insertGroup(dev.db, { name: 'Riverside' });
  stagingOrg = await insertGroup(staging.db, { name: 'Riverside on staging' });
  for (const role of ROLES) as[role] = await signInNewMember(dev, role === 'SUPER_ADMIN' ? provider : devOrg, { role });
  closed = await buildTestApp();
  closedSuperAdmin = await signInNewMember(closed, await insertGroup(closed.db, { name: 'Provider', dev: true }), {
    role: 'SUPER_ADMIN',
  });
}, 300_000);

describe('the environments', () => {
  it('lists dev, stable, staging and app, which one this is and which are configured, never their addresses or codes', async () => {
    const response = await as.SUPER_ADMIN.client.get('/api/cases/tool/environments');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      environments: [
        { name: 'dev', current: true, configured: true },
        { name: 'stable', current: false, configured: false },
        { name: 'staging', current: false, configured: true },
        { name: 'app', current: false, configured: true },
      ],
    });
    expect(response.body).not.toContain('127.0.0.1');
    expect(response.body).not.toContain(STAGING_CODE);
  });

  it('on a fresh start with nothing configured, this deployment is dev and the tool works on it', async () => {
    const response = await closedSuperAdmin.client.get('/api/cases/tool/environments');
    expect(response.json()).toEqual({
      environments: [
        { name: 'dev', current: true, configured: true },
        { name: 'stable', current: false, configured: false },
        { name: 'staging', current: false, configured: false },
        { name: 'app', current: false, configured: false },
      ],
    });
    const org = await insertGroup(closed.db, { name: 'Fresh Start Academy' });
    const id = await insertCase(closed, { name: 'Fresh Start Case', ownerOrgId: org });
    const copied = await copy({ source: 'dev', target: 'dev', caseIds: [id], targetOrg: org }, closedSuperAdmin);
    expect(copied.last).toMatchObject({ type: 'done', message: CASE_TEXTS.copied });
  });
});

describe('copy', () => {
  it('copies the cases into the target organisation, 3 at a time, with progress, and the documents are equal', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      ids.push(
        await insertCase(dev, {
          name: `Chest Pain ${index}`,
          ownerId: as.USER.userId,
          ownerOrgId: devOrg,
          tags: 'cardiac',
          published: index === 0,
          avatar: { id: 'walter', key: 'WALTER', name: 'Walter', pictureUrl: '/media/walter' },
        }),
      );
    }
    const before = (await stagingCases(stagingOrg)).length;
    const result = await copy({ source: 'dev', target: 'staging', caseIds: ids, targetOrg: stagingOrg });
    expect(result.status).toBe(200);
    expect(result.last).toMatchObject({ type: 'done', message: CASE_TEXTS.copied });
    const progress = result.events.filter((event) => event.type === 'progress');
    expect(progress).toHaveLength(15);
    expect(progress.filter((event) => event.step === 'compared').map((event) => event.done)).toEqual([1, 2, 3, 4, 5]);
    expect(progress.at(-1)).toMatchObject({ done: 5, total: 5 });

    const created = (result.last as Extract<CaseCopyEvent, { type: 'done' }>).created;
    expect(created.map((item) => item.sourceId).sort()).toEqual([...ids].sort());
    const rows = await stagingCases(stagingOrg);
    expect(rows).toHaveLength(before + 5);
    for (const { sourceId, targetId } of created) {
      const [source] = await dev.db.select().from(caseConfiguration).where(eq(caseConfiguration.id, sourceId));
      const target = rows.find((row) => row.id === targetId);
      expect(target?.ownerOrgId).toBe(stagingOrg);
      expect(target?.ownerId).toBeNull();
      expect(portableDocument(target?.document ?? {})).toEqual(portableDocument(source?.document ?? {}));
    }

    // Audited on both sides: the copy by the super admin here, each restore there (no local actor).
    const [event] = await dev.db.select().from(auditEvent).where(eq(auditEvent.action, 'case.copy'));
    expect(event).toMatchObject({ actorId: as.SUPER_ADMIN.userId });
    expect(event?.details).toMatchObject({
      source: 'dev',
      target: 'staging',
      caseIds: ids,
      targetOrg: stagingOrg,
      result: 'COPIED',
    });
    const restores = await staging.db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.action, 'case.restore'), isNull(auditEvent.actorId)));
    expect(restores.length).toBeGreaterThanOrEqual(5);
    expect(restores[0]?.details).toMatchObject({ peer: true, requestedBy: `${as.SUPER_ADMIN.email} (dev)` });
  });

  it('copies from a peer into this deployment too', async () => {
    const id = await insertCase(staging, { name: 'Asthma on staging', ownerOrgId: stagingOrg });
    const result = await copy({ source: 'staging', target: 'dev', caseIds: [id], targetOrg: devOrg });
    expect(result.last).toMatchObject({ type: 'done', message: CASE_TEXTS.copied });
    const rows = await dev.db.select().from(caseConfiguration).where(eq(caseConfiguration.name, 'Asthma on staging'));
    expect(rows).toHaveLength(1);
  });

  it('reports a document the target changed (CASE_JSON_NOT_EQUAL with both documents), removes it, and copies it with ignoreDifferences', async () => {
    // Written by an older version: the name keeps its surrounding spaces, which the case schema trims.
    const padded = await insertCase(dev, { name: '  Padded Name  ', ownerOrgId: devOrg });
    const plain = await insertCase(dev, { name: 'Plain Name', ownerOrgId: devOrg });
    const before = (await stagingCases(stagingOrg)).length;
    const result = await copy({ source: 'dev', target: 'staging', caseIds: [plain, padded], targetOrg: stagingOrg });
    expect(result.last).toMatchObject({
      type: 'error',
      statusCode: 422,
      code: 'CASE_JSON_NOT_EQUAL',
      message: CASE_TEXTS.notEqualAfterCopy,
      details: { caseId: padded, source: { name: '  Padded Name  ' }, target: { name: 'Padded Name' } },
    });
    expect(await stagingCases(stagingOrg)).toHaveLength(before);
    const [event] = await dev.db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.action, 'case.copy'), eq(auditEvent.targetType, 'case')));
    expect(event).toBeDefined();

    const again = await copy({
      source: 'dev',
      target: 'staging',
      caseIds: [plain, padded],
      targetOrg: stagingOrg,
      ignoreDifferences: true,
    });
    expect(again.last).toMatchObject({ type: 'done', message: CASE_TEXTS.copied });
    expect(await stagingCases(stagingOrg)).toHaveLength(before + 2);
  });

  it('leaves the target as it was when the target refuses a case halfway', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      // The fifth case has an empty name: the target's case schema refuses it. Three copies run at
      // a time, each taking the next case once one is done, so the fifth starts only after two
      // cases have been created in the target (the third, copied alongside the first two, could
      // be refused before either of them was).
      ids.push(await insertCase(dev, { name: index === 4 ? '   ' : `Stroke ${index}`, ownerOrgId: devOrg }));
    }
    const before = await stagingCases(stagingOrg);
    const result = await copy({ source: 'dev', target: 'staging', caseIds: ids, targetOrg: stagingOrg });
    expect(result.last).toMatchObject({ type: 'error', statusCode: 502, code: 'CASE_TARGET_FETCH_FAILED' });
    expect((result.last as { message: string }).message.startsWith(`${CASE_TEXTS.targetFetchError}: `)).toBe(true);
    expect((result.last as { message: string }).message).not.toContain('unknown error');
    // At least two cases were created before the refusal; all of them are gone again.
    const copyEvents = await dev.db.select().from(auditEvent).where(eq(auditEvent.action, 'case.copy'));
    const last = copyEvents.find(
      (event) => JSON.stringify((event.details as { caseIds: string[] }).caseIds) === JSON.stringify(ids),
    );
    expect((last?.details as { created: string[] }).created.length).toBeGreaterThanOrEqual(2);
    expect((last?.details as { removed: number }).removed).toBe((last?.details as { created: string[] }).created.length);
    expect((await stagingCases(stagingOrg)).map((row) => row.id).sort()).toEqual(before.map((row) => row.id).sort());
  });

  it('answers the source text when a case is missing in the source, and the target text for an unknown organisation', async () => {
    const missing = await copy({ source: 'dev', target: 'staging', caseIds: ['no-such-case'], targetOrg: stagingOrg });
    expect(missing.last).toMatchObject({
      type: 'error',
      code: 'CASE_SOURCE_FETCH_FAILED',
      message: `${CASE_TEXTS.sourceFetchError}: Case not found.`,
    });
    const id = await insertCase(dev, { name: 'Sepsis', ownerOrgId: devOrg });
    const noOrg = await copy({ source: 'dev', target: 'staging', caseIds: [id], targetOrg: 'no-such-org' });
    expect(noOrg.last).toMatchObject({
      code: 'CASE_TARGET_FETCH_FAILED',
      message: `${CASE_TEXTS.targetFetchError}: Organization not found.`,
    });
  });

  it('is refused by a target whose access code it does not hold', async () => {
    const id = await insertCase(dev, { name: 'Burns', ownerOrgId: devOrg });
    const before = (await stagingCases(stagingOrg)).length;
    const result = await copy({ source: 'dev', target: 'app', caseIds: [id], targetOrg: stagingOrg });
    expect(result.last).toMatchObject({
      code: 'CASE_TARGET_FETCH_FAILED',
      message: `${CASE_TEXTS.targetFetchError}: The access code is missing or wrong.`,
    });
    expect(await stagingCases(stagingOrg)).toHaveLength(before);
  });
});

describe('diff', () => {
  it('answers the same text for equal documents and both documents when they differ', async () => {
    const a = await insertCase(dev, { name: 'Overdose', ownerOrgId: devOrg, createdAt: new Date('2026-01-01T00:00:00Z') });
    const b = await insertCase(staging, {
      name: 'Overdose',
      ownerOrgId: stagingOrg,
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    const c = await insertCase(staging, {
      name: 'Overdose',
      tags: 'toxicology',
      ownerOrgId: stagingOrg,
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    const same = await as.SUPER_ADMIN.client.post('/api/cases/tool/diff', { envA: 'dev', idA: a, envB: 'staging', idB: b });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ same: true, message: CASE_TEXTS.same });
    const different = await as.SUPER_ADMIN.client.post('/api/cases/tool/diff', { envA: 'dev', idA: a, envB: 'staging', idB: c });
    expect(different.json()).toMatchObject({
      same: false,
      message: CASE_TEXTS.different,
      a: { tags: '' },
      b: { tags: 'toxicology' },
    });
    expect(different.json().a.id).toBeUndefined();
  });

  it('answers the source and target fetch texts', async () => {
    const a = await insertCase(dev, { name: 'Seizure', ownerOrgId: devOrg });
    const source = await as.SUPER_ADMIN.client.post('/api/cases/tool/diff', {
      envA: 'staging',
      idA: 'missing',
      envB: 'dev',
      idB: a,
    });
    expect(source.statusCode).toBe(502);
    expect(source.json()).toEqual({
      statusCode: 502,
      code: 'CASE_SOURCE_FETCH_FAILED',
      message: `${CASE_TEXTS.sourceFetchError}: Case not found.`,
    });
    const target = await as.SUPER_ADMIN.client.post('/api/cases/tool/diff', { envA: 'dev', idA: a, envB: 'app', idB: a });
    expect(target.json()).toMatchObject({
      code: 'CASE_TARGET_FETCH_FAILED',
      message: `${CASE_TEXTS.targetFetchError}: The access code is missing or wrong.`,
    });
  });
});

describe('the media a copied case shows', () => {
  /** Fetches every media URL of the case document from `t` as a browser would, with the bytes. */
  const served = async (t: TestApp, document: Record<string, unknown>) =>
    Promise.all(
      mediaIdsOf(document).map(async (id) => {
        const response = await t.app.inject({ method: 'GET', url: mediaUrl(id) });
        return { id, status: response.statusCode, type: response.headers['content-type'], bytes: response.rawPayload };
      }),
    );

  it('arrive with the case: every /media/… the copy references answers 200 at the target with the same bytes', async () => {
    const id = await insertPicturedCase(dev, { name: 'Pictured Chest Pain', ownerOrgId: devOrg });
    const result = await copy({ source: 'dev', target: 'staging', caseIds: [id], targetOrg: stagingOrg });
    expect(result.last).toMatchObject({ type: 'done', message: CASE_TEXTS.copied });
    const targetId = onlyCopyOf(result.last);

    const copied = await documentOf(staging, targetId);
    const files = await served(staging, copied);
    expect(files).toHaveLength(3);
    const expected = new Map((await served(dev, await documentOf(dev, id))).map((file) => [file.id, file.bytes] as const));
    for (const file of files) {
      expect(file.status, file.id).toBe(200);
      expect(file.type).toBe('image/png');
      expect(file.bytes.equals(expected.get(file.id) ?? Buffer.alloc(0)), file.id).toBe(true);
    }
    // And they are the very files of the source deployment.
    const lily = await readFile(path.join(SEED_ASSETS_DIR, 'avatars/lily-chen.png'));
    expect(files.some((file) => file.bytes.equals(lily))).toBe(true);

    // The compare of source and copy covers the pictures: the same.
    const diff = await as.SUPER_ADMIN.client.post('/api/cases/tool/diff', {
      envA: 'dev',
      idA: id,
      envB: 'staging',
      idB: targetId,
    });
    expect(diff.json()).toMatchObject({ same: true, message: CASE_TEXTS.same });
    expect(Object.keys(diff.json().mediaB as Record<string, unknown>).sort()).toEqual(
      mediaIdsOf(copied).map((mediaId) => mediaUrl(mediaId)),
    );

    // A second copy of the same case reuses the files already there.
    const again = await copy({ source: 'dev', target: 'staging', caseIds: [id], targetOrg: stagingOrg });
    expect(again.last).toMatchObject({ type: 'done' });
    const [event] = await dev.db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.action, 'case.copy')))
      .then((rows) =>
        rows.filter((row) => JSON.stringify((row.details as { caseIds: string[] }).caseIds) === JSON.stringify([id])),
      );
    expect((event?.details as { createdMedia: string[] }).createdMedia).toHaveLength(3);
  });

  it('copies from a peer into this deployment with its pictures too', async () => {
    const id = await insertPicturedCase(staging, {
      name: 'Pictured on staging',
      ownerOrgId: stagingOrg,
      files: ['avatars/noah-fischer.png', 'scenes/field.png', 'scenes/home.png'],
    });
    const result = await copy({ source: 'staging', target: 'dev', caseIds: [id], targetOrg: devOrg });
    expect(result.last).toMatchObject({ type: 'done' });
    const targetId = onlyCopyOf(result.last);
    const files = await served(dev, await documentOf(dev, targetId));
    expect(files.map((file) => file.status)).toEqual([200, 200, 200]);
  });

  it('a compare reports a picture that is missing or different at the other side, and a copy onto a different file fails', async () => {
    const id = await insertPicturedCase(dev, { name: 'Picture Mismatch', ownerOrgId: devOrg });
    const document = await documentOf(dev, id);
    const [first] = mediaIdsOf(document) as [string];
    // The same document on staging, but its avatar file there holds other bytes, and the others are missing.
    const twin = await insertCase(staging, { name: 'twin', ownerOrgId: stagingOrg });
    await staging.db.update(caseConfiguration).set({ document }).where(eq(caseConfiguration.id, twin));
    await staging.db
      .insert(media)
      .values({ id: first, fileName: 'other.png', contentType: 'image/png', path: 'scenes/vehicle.png' });
    const diff = await as.SUPER_ADMIN.client.post('/api/cases/tool/diff', { envA: 'dev', idA: id, envB: 'staging', idB: twin });
    const answer = diff.json();
    expect(answer).toMatchObject({ same: false, message: CASE_TEXTS.different });
    expect(answer.a).toEqual(answer.b);
    expect(answer.mediaB[mediaUrl(first)].sha256).not.toBe(answer.mediaA[mediaUrl(first)].sha256);
    expect(Object.values(answer.mediaB as Record<string, unknown>).filter((digest) => digest === null)).toHaveLength(2);

    // The copy carries the two missing files, keeps the existing one, and so is not the same: all undone.
    const before = await staging.db.select({ id: media.id }).from(media);
    const result = await copy({ source: 'dev', target: 'staging', caseIds: [id], targetOrg: stagingOrg });
    expect(result.last).toMatchObject({ type: 'error', code: 'CASE_JSON_NOT_EQUAL', caseId: id });
    const details = (result.last as { details: { sourceMedia: Record<string, unknown>; targetMedia: Record<string, unknown> } })
      .details;
    expect(details.targetMedia[mediaUrl(first)]).not.toEqual(details.sourceMedia[mediaUrl(first)]);
    // The files this copy created are gone again (the twin's document references them: kept).
    const after = await staging.db.select({ id: media.id }).from(media);
    expect(after.length).toBeGreaterThanOrEqual(before.length);
    expect(after.length).toBeLessThanOrEqual(before.length + 2);
  });

  it('removes the files a failed copy carried when no case there shows them', async () => {
    const good = await insertPicturedCase(dev, {
      name: 'Carried then undone',
      ownerOrgId: devOrg,
      files: ['avatars/ryan-walsh.png', 'scenes/public.png', 'scenes/vehicle.png'],
    });
    const bad = await insertCase(dev, { name: '   ', ownerOrgId: devOrg });
    const ids = mediaIdsOf(await documentOf(dev, good));
    const result = await copy({ source: 'dev', target: 'staging', caseIds: [good, bad], targetOrg: stagingOrg });
    expect(result.last).toMatchObject({ type: 'error', code: 'CASE_TARGET_FETCH_FAILED', caseId: bad });
    expect(await staging.db.select().from(media).where(inArray(media.id, ids))).toHaveLength(0);
  });
});

describe('picking cases and organisations by name', () => {
  it('finds cases by name, or by id, in this deployment and on a peer', async () => {
    const here = await insertCase(dev, { name: 'Anaphylaxis at the Fair', ownerOrgId: devOrg });
    const there = await insertCase(staging, { name: 'Anaphylaxis on Staging', ownerOrgId: stagingOrg });
    const local = await as.SUPER_ADMIN.client.get('/api/cases/tool/cases?env=dev&q=anaphylaxis');
    expect(local.statusCode).toBe(200);
    expect(local.json()).toEqual({ cases: [{ id: here, name: 'Anaphylaxis at the Fair', organisation: 'Riverside' }] });
    const remote = await as.SUPER_ADMIN.client.get('/api/cases/tool/cases?env=staging&q=ANAPHYL');
    expect(remote.json()).toEqual({
      cases: [{ id: there, name: 'Anaphylaxis on Staging', organisation: 'Riverside on staging' }],
    });
    const byId = await as.SUPER_ADMIN.client.get(`/api/cases/tool/cases?env=staging&q=${there}`);
    expect(byId.json().cases.map((found: { id: string }) => found.id)).toEqual([there]);
    // LIKE wildcards are taken literally.
    const wildcard = await as.SUPER_ADMIN.client.get('/api/cases/tool/cases?env=dev&q=%25%25%25');
    expect(wildcard.json()).toEqual({ cases: [] });
  });

  it('finds organisations by name on the target deployment', async () => {
    const remote = await as.SUPER_ADMIN.client.get('/api/cases/tool/organisations?env=staging&q=riverside');
    expect(remote.json()).toEqual({ organisations: [{ id: stagingOrg, name: 'Riverside on staging' }] });
    const local = await as.SUPER_ADMIN.client.get('/api/cases/tool/organisations?env=dev&q=riverside');
    expect(local.json()).toEqual({ organisations: [{ id: devOrg, name: 'Riverside' }] });
  });

  it('answers 400 for a short term or an unknown environment, and the peer text when the peer refuses', async () => {
    for (const url of [
      '/api/cases/tool/cases?env=dev&q=ab',
      '/api/cases/tool/cases?env=production&q=abc',
      '/api/cases/tool/organisations?env=staging',
    ]) {
      const response = await as.SUPER_ADMIN.client.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    }
    const unknown = await as.SUPER_ADMIN.client.get('/api/cases/tool/cases?env=stable&q=abc');
    expect(unknown.json()).toMatchObject({ statusCode: 400, code: 'CASE_ENVIRONMENT_UNKNOWN' });
    const refused = await as.SUPER_ADMIN.client.get('/api/cases/tool/organisations?env=app&q=river');
    expect(refused.json()).toEqual({
      statusCode: 502,
      code: 'CASE_TARGET_FETCH_FAILED',
      message: `${CASE_TEXTS.targetFetchError}: The access code is missing or wrong.`,
    });
  });
});

describe('who may use the tool', () => {
  const routes = [
    { method: 'GET', url: '/api/cases/tool/environments' },
    { method: 'POST', url: '/api/cases/tool/copy', body: { source: 'dev', target: 'staging', caseIds: ['x1'], targetOrg: 'o1' } },
    { method: 'POST', url: '/api/cases/tool/diff', body: { envA: 'dev', idA: 'x1', envB: 'staging', idB: 'x2' } },
    { method: 'GET', url: '/api/cases/tool/cases?env=dev&q=chest' },
    { method: 'GET', url: '/api/cases/tool/organisations?env=staging&q=river' },
  ] as const;

  it.each(ROLES.filter((role) => role !== 'SUPER_ADMIN'))('refuses %s', async (role) => {
    for (const route of routes) {
      const response =
        route.method === 'GET' ? await as[role].client.get(route.url) : await as[role].client.post(route.url, route.body);
      expect(response.statusCode, `${role} ${route.url}`).toBe(403);
      expect(response.json()).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    }
  });

  it('refuses a super admin viewing as another user, even as another super admin, and a caller without a token', async () => {
    const other = await signInNewMember(dev, devOrg, { role: 'SUPER_ADMIN' });
    for (const userId of [as.ADMIN.userId, other.userId]) {
      const view = await viewingAs(dev, { userId, viewer: as.SUPER_ADMIN });
      for (const url of [
        '/api/cases/tool/environments',
        '/api/cases/tool/cases?env=dev&q=chest',
        '/api/cases/tool/organisations?env=dev&q=river',
      ]) {
        const response = await view.get(url);
        expect(response.statusCode, url).toBe(403);
      }
    }
    for (const url of ['/api/cases/tool/environments', '/api/cases/tool/cases?env=dev&q=chest']) {
      const anonymous = await dev.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode).toBe(401);
    }
  });

  it('answers 400 for bad input, before anything is copied', async () => {
    const good = { source: 'dev', target: 'staging', caseIds: ['a1'], targetOrg: stagingOrg };
    const bad = [
      { ...good, caseIds: [] },
      { ...good, caseIds: Array.from({ length: CASE_COPY_MAX + 1 }, (_, index) => `case${index}`) },
      { ...good, caseIds: ['a1', 'a1'] },
      { ...good, caseIds: ['bad id'] },
      { ...good, source: 'production' },
      { ...good, targetOrg: '' },
      { ...good, ignoreDifferences: 'yes' },
      { source: 'dev' },
    ];
    for (const body of bad) {
      const response = await as.SUPER_ADMIN.client.post('/api/cases/tool/copy', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    }
    const unknown = await as.SUPER_ADMIN.client.post('/api/cases/tool/copy', { ...good, target: 'stable' });
    expect(unknown.json()).toMatchObject({ statusCode: 400, code: 'CASE_ENVIRONMENT_UNKNOWN' });
    const diff = await as.SUPER_ADMIN.client.post('/api/cases/tool/diff', { envA: 'dev', idA: 'a1', envB: 'stable', idB: 'b1' });
    expect(diff.json()).toMatchObject({ statusCode: 400, code: 'CASE_ENVIRONMENT_UNKNOWN' });
    const badDiff = await as.SUPER_ADMIN.client.post('/api/cases/tool/diff', { envA: 'dev', idA: '../x', envB: 'staging' });
    expect(badDiff.statusCode).toBe(400);
  });
});

describe('the peer endpoints', () => {
  const call = (path: string, init: { method?: string; code?: string | null; body?: unknown } = {}) =>
    fetch(`${stagingUrl}${path}`, {
      method: init.method ?? 'POST',
      headers: {
        ...(init.code === null ? {} : { [CASE_PEER_CODE_HEADER]: init.code ?? STAGING_CODE }),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  it('refuses a missing or wrong code (any length), and the code of another deployment', async () => {
    const id = await insertCase(staging, { name: 'Guarded', ownerOrgId: stagingOrg });
    for (const code of [null, '', WRONG_CODE, 'short', `${STAGING_CODE}x`, DEV_CODE]) {
      for (const [path, method, body] of [
        ['/api/cases/peer/dump', 'POST', { ids: [id] }],
        ['/api/cases/peer/restore', 'POST', { dump: { name: 'Intruder' }, ownerOrg: stagingOrg }],
        ['/api/cases/peer/remove', 'POST', { ids: [id] }],
        [`/api/cases/peer/${id}`, 'GET', undefined],
        ['/api/cases/peer/search/cases?q=Guarded', 'GET', undefined],
        ['/api/cases/peer/search/organisations?q=Riverside', 'GET', undefined],
        ['/api/cases/peer/media/some-media', 'GET', undefined],
        ['/api/cases/peer/media', 'POST', { id: 'm1', fileName: 'a.png', contentType: 'image/png', content: 'AAAA' }],
        ['/api/cases/peer/media/digests', 'POST', { ids: ['m1'] }],
        ['/api/cases/peer/media/remove', 'POST', { ids: ['m1'] }],
      ] as const) {
        const response = await call(path, { method, code, body });
        expect(response.status, `${String(code)} ${path}`).toBe(403);
        expect(await response.json()).toMatchObject({ statusCode: 403, code: 'CASE_ACCESS_CODE_INVALID' });
      }
    }
    expect(await staging.db.select().from(caseConfiguration).where(eq(caseConfiguration.id, id))).toHaveLength(1);
    expect(await staging.db.select().from(caseConfiguration).where(eq(caseConfiguration.name, 'Intruder'))).toHaveLength(0);
    expect(await staging.db.select().from(media).where(eq(media.id, 'm1'))).toHaveLength(0);
    const ok = await call(`/api/cases/peer/${id}`, { method: 'GET' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ name: 'Guarded' });
  });

  it('answers 400 for bad input and 404 for a missing case', async () => {
    for (const [path, body] of [
      ['/api/cases/peer/dump', { ids: [] }],
      ['/api/cases/peer/dump', { ids: Array.from({ length: 101 }, (_, index) => `c${index}`) }],
      ['/api/cases/peer/restore', { dump: { name: 'x' }, ownerOrg: 'bad id' }],
      ['/api/cases/peer/restore', { dump: { tags: 'no name' }, ownerOrg: stagingOrg }],
      ['/api/cases/peer/remove', { ids: ['a b'] }],
      // Only pictures, videos and sounds are carried: never a page or an SVG served from this origin.
      ['/api/cases/peer/media', { id: 'page1', fileName: 'x.html', contentType: 'text/html', content: 'PGh0bWw+' }],
      ['/api/cases/peer/media', { id: 'svg1', fileName: 'x.svg', contentType: 'image/svg+xml', content: 'PHN2Zz4=' }],
      ['/api/cases/peer/media', { id: 'b64', fileName: 'x.png', contentType: 'image/png', content: 'not base64!' }],
      ['/api/cases/peer/media/digests', { ids: [] }],
    ] as const) {
      const response = await call(path, { body });
      expect(response.status, `${path} ${JSON.stringify(body).slice(0, 40)}`).toBe(400);
      expect(await response.json()).toMatchObject({ statusCode: 400 });
    }
    expect((await call('/api/cases/peer/missing', { method: 'GET' })).status).toBe(404);
    expect((await call('/api/cases/peer/media/missing', { method: 'GET' })).status).toBe(404);
    expect((await call('/api/cases/peer/search/cases?q=ab', { method: 'GET' })).status).toBe(400);
    expect(
      await staging.db
        .select()
        .from(media)
        .where(inArray(media.id, ['page1', 'svg1', 'b64'])),
    ).toHaveLength(0);
    const none = await call('/api/cases/peer/dump', { body: { ids: ['missing'] } });
    expect(await none.json()).toEqual({
      cases: [],
    });
  });

  it('does not exist on a deployment without an access code', async () => {
    const response = await closed.app.inject({
      method: 'POST',
      url: '/api/cases/peer/dump',
      headers: { [CASE_PEER_CODE_HEADER]: STAGING_CODE },
      payload: { ids: ['a1'] },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });
});
