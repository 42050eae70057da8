import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { lazySchema } from './lazy-schema';

describe('lazySchema', () => {
  it('builds the schema on first use only, once', () => {
    const build = vi.fn(() => z.object({ name: z.string().min(1) }));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(schema.safeParse({ name: 'Ada' })).toEqual({ success: true, data: { name: 'Ada' } });
    expect(schema.safeParse({ name: '' }).success).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('behaves as the schema inside other schemas, in zod checks and when extended', () => {
    const Email = lazySchema(() => z.string().email());
    const Body = lazySchema(() => z.object({ email: Email, note: Email.optional() }));
    expect(Body.parse({ email: 'a@b.test' })).toEqual({ email: 'a@b.test' });
    expect(Body.safeParse({ email: 'nope' }).success).toBe(false);
    expect(Body).toBeInstanceOf(z.ZodObject);
    expect('_zod' in Body).toBe(true);
    expect(Object.keys(Body.extend({ extra: z.number() }).shape)).toEqual(['email', 'note', 'extra']);
  });
});
