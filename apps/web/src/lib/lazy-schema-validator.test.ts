import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FORM_CHECKS_NOT_LOADED_MESSAGE, lazySchemaValidator } from './lazy-schema-validator';

const Schema = z.object({
  email: z.string().trim().min(1, 'Email is required').email('Enter a valid email'),
  password: z.string().min(1, 'Password is required'),
});
type Input = z.input<typeof Schema>;
type Output = z.output<typeof Schema>;

describe('lazySchemaValidator', () => {
  it('validates with the schema it loads, loading it once', async () => {
    const load = vi.fn(async () => Schema);
    const validator = lazySchemaValidator<Input, Output>(load);
    expect(load).not.toHaveBeenCalled();

    await expect(validator.validate({ email: '  ', password: '' })).resolves.toEqual({
      isValid: false,
      // The first issue of each field.
      fieldErrors: { email: 'Email is required', password: 'Password is required' },
      formError: null,
    });
    await expect(validator.validate({ email: ' owner@demo.test ', password: 'x' })).resolves.toEqual({
      isValid: true,
      values: { email: 'owner@demo.test', password: 'x' },
    });
    validator.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('starts loading on preload, before the first validation', async () => {
    const load = vi.fn(async () => Schema);
    const validator = lazySchemaValidator<Input, Output>(load);
    validator.preload();
    expect(load).toHaveBeenCalledTimes(1);
    await expect(validator.validate({ email: 'a@b.test', password: 'x' })).resolves.toMatchObject({ isValid: true });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('answers a form error when the schema cannot load, and tries again next time', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('network')).mockResolvedValue(Schema);
    const validator = lazySchemaValidator<Input, Output>(load);
    await expect(validator.validate({ email: 'a@b.test', password: 'x' })).resolves.toEqual({
      isValid: false,
      fieldErrors: {},
      formError: FORM_CHECKS_NOT_LOADED_MESSAGE,
    });
    await expect(validator.validate({ email: 'a@b.test', password: 'x' })).resolves.toEqual({
      isValid: true,
      values: { email: 'a@b.test', password: 'x' },
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
