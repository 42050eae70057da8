import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DatabaseHandle, isEngineBroken, openPglite } from './client.js';
import { user } from './schema/auth.js';

describe('the embedded database client', () => {
  const onBroken = vi.fn();
  let handle: DatabaseHandle;
  // Opening and migrating a new engine is the slow part: in the hook, with the hook's time.
  beforeAll(async () => {
    handle = await openPglite(null, { onBroken });
    await handle.migrate();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('reads timestamps through drizzle as dates, and raw statements as the text drizzle asked for', async () => {
    const { db } = handle;
    const createdAt = new Date('2026-03-01T12:34:56.789Z');
    await db.insert(user).values({ id: 'u1', name: 'A B', email: 'a@example.test', createdAt });
    const [row] = await db.select().from(user).where(eq(user.id, 'u1'));
    expect(row?.createdAt).toEqual(createdAt);
    expect(row?.deletedAt).toBeNull();
    const raw: unknown = await db.execute(sql`select created_at from "user" where id = 'u1'`);
    expect(typeof (raw as { rows: { created_at: unknown }[] }).rows[0]?.created_at).toBe('string');
  });

  it('passes an ordinary error on to the caller without calling the engine broken', async () => {
    const { db } = handle;
    await expect(db.execute(sql`select * from no_such_table`)).rejects.toThrow();
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`select 1 / 0`);
      }),
    ).rejects.toThrow();
    expect(onBroken).not.toHaveBeenCalled();
  });
});

describe('an engine error after which the embedded engine cannot be trusted', () => {
  it('is a PANIC or FATAL, a file the engine could not use, or an aborted module, raw or wrapped', () => {
    expect(isEngineBroken({ severity: 'PANIC' })).toBe(true);
    expect(isEngineBroken(new Error('query failed', { cause: { code: '58P01' } }))).toBe(true);
    expect(isEngineBroken({ code: '42501' })).toBe(true);
    expect(isEngineBroken(Object.assign(new Error('unreachable'), { name: 'RuntimeError' }))).toBe(true);
    expect(isEngineBroken({ code: '42P01', severity: 'ERROR' })).toBe(false);
    expect(isEngineBroken(new Error('unique', { cause: { code: '23505' } }))).toBe(false);
  });
});
