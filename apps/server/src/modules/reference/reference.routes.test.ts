import { ReferenceDataSchema } from '@patientsim/domain/reference/reference-data';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { insertGroup, signInNewMember } from '../../../test/fixtures.js';
import { REFERENCE_CACHE_CONTROL } from './reference.routes.js';
import { matchesIfNoneMatch } from './reference.service.js';

const URL = '/api/reference-data';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});

describe('GET /api/reference-data', () => {
  it('answers the whole reference data to anyone, with an ETag and a cache policy', async () => {
    const response = await t.app.inject({ url: URL });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(response.headers['cache-control']).toBe(REFERENCE_CACHE_CONTROL);
    const body = ReferenceDataSchema.parse(response.json());
    expect(body.bodyParts).toHaveLength(26);
    expect(body.bodyParts.find((part) => part.key === 'BUTTOCKS')?.label).toEqual({ en: 'Buttocks', es: 'Las Nalgas' });
    expect(body.bodyParts.find((part) => part.key === 'HEAD')?.label).toEqual({ en: 'Head' });
    expect(body.dosageForms).toHaveLength(22);
    expect(body.placements.map((placement) => placement.key)).toEqual([
      'CENTRAL_LINE',
      'PICC',
      'PORTACATH',
      'INTRODUCER',
      'SHEATH',
      'DIALYSIS_CATHETER',
    ]);
    expect(body.maximumBags).toEqual({ EMS: 3, NURSING: 10, MILITARY: 10 });
    expect(body.features).toContainEqual({ key: 'DISPATCH_CODE_STATUS', productTypes: ['NURSING'] });
    expect(body.featureLabels.NURSING).toEqual({ TRANSFER_OF_CARE: 'Transfer of Care', CHART: 'Chart', GOAL: 'Outcome' });
  });

  it('answers the same tag every time, and the same answer to a signed-in caller', async () => {
    const first = await t.app.inject({ url: URL });
    const org = await insertGroup(t.db, { name: 'Reference Org' });
    const student = await signInNewMember(t, org, { role: 'STUDENT' });
    const second = await t.app.inject({ url: URL, headers: { authorization: `Bearer ${student.idToken}` } });
    expect(second.statusCode).toBe(200);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body).toBe(first.body);
  });

  it('answers 304 without a body to a matching If-None-Match', async () => {
    const etag = String((await t.app.inject({ url: URL })).headers.etag);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await t.app.inject({ url: URL, headers: { 'if-none-match': header } });
      expect(response.statusCode, header).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe(REFERENCE_CACHE_CONTROL);
    }
  });

  it('answers the data again to a stale If-None-Match', async () => {
    const response = await t.app.inject({ url: URL, headers: { 'if-none-match': '"stale"' } });
    expect(response.statusCode).toBe(200);
    expect(ReferenceDataSchema.safeParse(response.json()).success).toBe(true);
  });

  it('is read-only: other methods are not routes', async () => {
    const response = await t.app.inject({ method: 'POST', url: URL, payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('is documented in the OpenAPI document', async () => {
    const document = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, { get?: unknown }> }>();
    expect(document.paths[URL]?.get).toBeDefined();
  });
});

describe('If-None-Match matching', () => {
  it('compares weakly and ignores other tags', () => {
    expect(matchesIfNoneMatch(undefined, '"a"')).toBe(false);
    expect(matchesIfNoneMatch('"b"', '"a"')).toBe(false);
    expect(matchesIfNoneMatch(' W/"a" ', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b","a"', '"a"')).toBe(true);
  });
});
