import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FORM_CHECKS_NOT_LOADED_MESSAGE, lazyZodResolver } from './lazy-zod-resolver';

const Schema = z.object({ email: z.string().trim().min(1, 'Email is required') });
type Input = z.input<typeof Schema>;
type Output = z.output<typeof Schema>;

const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe('lazyZodResolver', () => {
  it('validates with the schema it loads, loading it once', async () => {
    const load = vi.fn(async () => Schema);
    const resolver = lazyZodResolver<Input, Output>(load);
    expect(load).not.toHaveBeenCalled();

    const invalid = await resolver({ email: '  ' }, undefined, options);
    expect(invalid.errors.email?.message).toBe('Email is required');
    const valid = await resolver({ email: ' owner@demo.test ' }, undefined, options);
    expect(valid).toEqual({ values: { email: 'owner@demo.test' }, errors: {} });
    resolver.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('starts loading on preload, before the first validation', async () => {
    const load = vi.fn(async () => Schema);
    const resolver = lazyZodResolver<Input, Output>(load);
    resolver.preload();
    expect(load).toHaveBeenCalledTimes(1);
    await expect(resolver({ email: 'a@b.test' }, undefined, options)).resolves.toEqual({
      values: { email: 'a@b.test' },
      errors: {},
    });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('answers a form error when the schema cannot load, and tries again next time', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('network')).mockResolvedValue(Schema);
    const resolver = lazyZodResolver<Input, Output>(load);
    await expect(resolver({ email: 'a@b.test' }, undefined, options)).resolves.toEqual({
      values: {},
      errors: { root: { type: 'load', message: FORM_CHECKS_NOT_LOADED_MESSAGE } },
    });
    await expect(resolver({ email: 'a@b.test' }, undefined, options)).resolves.toEqual({
      values: { email: 'a@b.test' },
      errors: {},
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
