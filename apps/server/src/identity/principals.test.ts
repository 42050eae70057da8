import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-app.js';
import { insertGroup, insertUser } from '../../test/fixtures.js';
import { findOwnedOrganisationIds, principalsOf } from './principals.js';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});

describe('findOwnedOrganisationIds', () => {
  it('answers the organisations a person is key owner of, not the sub-groups they own', async () => {
    const owner = await insertUser(t.db, { role: 'ADMIN' });
    const other = await insertUser(t.db, { role: 'ADMIN' });
    const first = await insertGroup(t.db, { ownerId: owner.id });
    const second = await insertGroup(t.db, { ownerId: owner.id });
    await insertGroup(t.db, { ownerId: owner.id, parentId: first });
    await insertGroup(t.db, { ownerId: other.id });

    expect((await findOwnedOrganisationIds(t.db, owner.id)).sort()).toEqual([first, second].sort());
    expect(await findOwnedOrganisationIds(t.db, (await insertUser(t.db)).id)).toEqual([]);
  });

  it('is read from the owners index, not from every organisation (the case list asks on every page)', async () => {
    const plan = await t.db.transaction(async (tx) => {
      // Without a table scan, only an index can answer; the organisations' index would pass them all.
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(sql`explain select id from "group" where owner_id = 'someone' and parent_id is null`);
    });
    expect(JSON.stringify(plan)).toContain('group_owner_idx');
  });
});

describe('principalsOf', () => {
  it('adds ALL_KEYOWNERS for a key owner, and the organisation pseudo group of the role held there', () => {
    const groups = (keyOwnerOf: string[]) =>
      principalsOf({
        id: 'u1',
        role: 'ADMIN',
        groupsData: [{ _id: 'org1', parent: null, role: 'ADMIN' }],
        keyOwnerOf,
      }).map((principal) => principal.principalId);
    expect(groups(['org1'])).toEqual(['u1', 'ALL_USERS', 'ALL_ADMINS', 'org1', 'org1_ADMINS', 'ALL_KEYOWNERS']);
    expect(groups([])).not.toContain('ALL_KEYOWNERS');
  });
});
