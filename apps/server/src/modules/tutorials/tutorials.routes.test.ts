import type { ProductType } from '@patientsim/domain/product/product-types';
import type { TutorialCategory } from '@patientsim/domain/tutorials/tutorial.schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { media, tutorial } from '../../db/schema/tutorials.js';
import { buildMedia, buildTutorial } from '../../seed/builders.js';
import { TUTORIAL_VIDEO } from '../../seed/media-assets.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { insertGroup, insertUser, signInNewMember } from '../../../test/fixtures.js';

const URL = '/api/users/tutorials';

type Session = Awaited<ReturnType<typeof signInAs>>;

let t: TestApp;
let emsAdmin: Session;
let nursingAdmin: Session;
let instructor: Session;
let superAdmin: Session;
let student: Session;

async function insertTutorial(title: string, category: TutorialCategory, productType: ProductType | null, ordinal: number) {
  const video = buildMedia({ ...TUTORIAL_VIDEO, fileName: `${title}.webm` });
  await t.db.insert(media).values(video);
  await t.db.insert(tutorial).values(buildTutorial({ title, category, productType, ordinal, mediaId: video.id }));
}

const member = (orgId: string, role: 'STUDENT' | 'USER' | 'ADMIN') => signInNewMember(t, orgId, { role });

const titles = (body: { data: { tutorials: Array<{ title: string }> } }) => body.data.tutorials.map((item) => item.title);

beforeAll(async () => {
  t = await buildTestApp();
  // Inserted out of order: the answer sorts by ordinal.
  await insertTutorial('EMS builder two', 'SCENARIO_BUILDER', 'EMS', 2);
  await insertTutorial('Everyone builder', 'SCENARIO_BUILDER', null, 3);
  await insertTutorial('EMS builder one', 'SCENARIO_BUILDER', 'EMS', 1);
  await insertTutorial('Nursing builder', 'SCENARIO_BUILDER', 'NURSING', 1);
  await insertTutorial('EMS org management', 'ORG_MANAGEMENT', 'EMS', 1);
  await insertTutorial('Military logic', 'SCENARIO_LOGIC', 'MILITARY', 1);

  const emsOrg = await insertGroup(t.db, { name: 'Tutorial EMS Org', productType: 'EMS' });
  const nursingOrg = await insertGroup(t.db, { name: 'Tutorial Nursing Org', productType: 'NURSING' });
  emsAdmin = await member(emsOrg, 'ADMIN');
  instructor = await member(emsOrg, 'USER');
  student = await member(emsOrg, 'STUDENT');
  nursingAdmin = await member(nursingOrg, 'ADMIN');
  const provider = await insertUser(t.db, { role: 'SUPER_ADMIN' });
  superAdmin = await signInAs(t, provider.email, provider.password);
});

describe('GET /api/users/tutorials', () => {
  it("lists the caller's product type and the shared tutorials by ordinal, each with a playable media URL", async () => {
    const response = await emsAdmin.client.get(URL);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(titles(body)).toEqual(['EMS builder one', 'EMS org management', 'EMS builder two', 'Everyone builder']);
    const [first] = body.data.tutorials;
    expect(Object.keys(first).sort()).toEqual(['_id', 'category', 'mediaId', 'mediaUrl', 'ordinal', 'productType', 'title']);
    expect(first).toMatchObject({ category: 'SCENARIO_BUILDER', productType: 'EMS', ordinal: 1 });
    expect(first.mediaUrl).toBe(`/media/${first.mediaId}`);
    const video = await t.app.inject({ method: 'GET', url: first.mediaUrl });
    expect(video.statusCode).toBe(200);
    expect(video.headers['content-type']).toContain('video/webm');
  });

  it("defaults to the caller's current product type", async () => {
    const body = (await nursingAdmin.client.get(URL)).json();
    expect(titles(body)).toEqual(['Nursing builder', 'Everyone builder']);
  });

  it('filters by category and product type, shared tutorials (null product type) included', async () => {
    const response = await emsAdmin.client.get(`${URL}?category=SCENARIO_BUILDER&productType=NURSING`);
    expect(response.statusCode).toBe(200);
    expect(titles(response.json())).toEqual(['Nursing builder', 'Everyone builder']);
    expect(response.json().data.tutorials.map((item: { productType: string | null }) => item.productType)).toEqual([
      'NURSING',
      null,
    ]);
    expect(titles((await emsAdmin.client.get(`${URL}?category=ORG_MANAGEMENT`)).json())).toEqual(['EMS org management']);
    expect(titles((await emsAdmin.client.get(`${URL}?productType=MILITARY`)).json())).toEqual([
      'Military logic',
      'Everyone builder',
    ]);
  });

  it("accepts the spec's filter JSON, in either clause order", async () => {
    for (const or of [
      [{ productType: null }, { productType: 'NURSING' }],
      [{ productType: 'NURSING' }, { productType: null }],
    ]) {
      const filter = JSON.stringify({ category: 'SCENARIO_BUILDER', $or: or });
      const response = await emsAdmin.client.get(`${URL}?filter=${encodeURIComponent(filter)}`);
      expect(response.statusCode).toBe(200);
      expect(titles(response.json())).toEqual(['Nursing builder', 'Everyone builder']);
    }
    const categoryOnly = await emsAdmin.client.get(`${URL}?filter=${encodeURIComponent('{"category":"ORG_MANAGEMENT"}')}`);
    expect(titles(categoryOnly.json())).toEqual(['EMS org management']);
  });

  it.each([
    ['another operator', { category: 'SCENARIO_BUILDER', $or: [{ productType: null }, { productType: { $ne: 'EMS' } }] }],
    ['an extra operator at the top', { category: 'SCENARIO_BUILDER', $where: 'sleep(1000)' }],
    ['an extra field', { category: 'SCENARIO_BUILDER', title: 'x' }],
    ['an extra field in a clause', { $or: [{ productType: null }, { productType: 'EMS', ordinal: 1 }] }],
    ['a regex category', { category: { $regex: '.*' } }],
    ['an unknown category', { category: 'EVERYTHING' }],
    ['two product types', { $or: [{ productType: 'EMS' }, { productType: 'NURSING' }] }],
    ['a lone clause', { $or: [{ productType: 'EMS' }] }],
    ['an array', [{ category: 'SCENARIO_BUILDER' }]],
  ])('refuses a filter with %s (400)', async (_label, filter) => {
    const response = await emsAdmin.client.get(`${URL}?filter=${encodeURIComponent(JSON.stringify(filter))}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_FAILED');
  });

  it.each([
    ['bad JSON', 'filter={category:'],
    ['a filter beside the plain parameters', `filter=${encodeURIComponent('{"category":"SCENARIO_BUILDER"}')}&productType=EMS`],
    ['an unknown category', 'category=EVERYTHING'],
    ['an unknown product type', 'productType=AIR'],
    ['a NUL byte in category', 'category=SCENARIO_BUILDER%00'],
    ['a NUL byte in productType', 'productType=%00'],
    ['a NUL byte in filter', `filter=${encodeURIComponent('{"category":"SCENARIO_BUILDER\u0000"}')}`],
    ['a NUL byte escaped inside the filter JSON', `filter=${encodeURIComponent('{"category":"\\u0000"}')}`],
    ['an oversized filter', `filter=${encodeURIComponent(JSON.stringify({ category: 'x'.repeat(600) }))}`],
  ])('refuses %s (400, never 500)', async (_label, query) => {
    const response = await emsAdmin.client.get(`${URL}?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
  });

  it('answers instructors and super admins', async () => {
    expect((await instructor.client.get(URL)).statusCode).toBe(200);
    const asSuperAdmin = await superAdmin.client.get(`${URL}?productType=NURSING`);
    expect(asSuperAdmin.statusCode).toBe(200);
    expect(titles(asSuperAdmin.json())).toEqual(['Nursing builder', 'Everyone builder']);
  });

  it('is described in the OpenAPI document with its query parameters', async () => {
    const document = (await t.app.inject({ url: '/api/docs/json' })).json();
    const parameters = document.paths[URL].get.parameters.map((parameter: { name: string }) => parameter.name);
    expect(parameters.sort()).toEqual(['category', 'filter', 'productType']);
  });

  it('refuses students (403) and callers without a token (401)', async () => {
    const asStudent = await student.client.get(URL);
    expect(asStudent.statusCode).toBe(403);
    expect(asStudent.json().code).toBe('FORBIDDEN');
    const anonymous = await t.app.inject({ method: 'GET', url: URL });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHENTICATED');
  });
});
