import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

/** Shown as the form's error when its checks could not be loaded (a dropped connection). */
export const FORM_CHECKS_NOT_LOADED_MESSAGE = 'The form could not be checked. Check your connection and try again.';

/** A form resolver that loads its schema when first needed; `preload` starts loading it early. */
export type LazyResolver<Input extends FieldValues, Output> = Resolver<Input, unknown, Output> & { preload: () => void };

/**
 * The zod resolver of a domain schema, loaded on first use: a form of the first page (sign-in)
 * validates with the same schema as the server without putting zod in the first load. The form
 * calls `preload` when the person starts filling it in, so the schema is there by the time they
 * submit. A failed load makes the validation answer a root error (`errors.root`) with
 * `FORM_CHECKS_NOT_LOADED_MESSAGE`, and is tried again on the next validation.
 */
export function lazyZodResolver<Input extends FieldValues, Output extends FieldValues>(
  loadSchema: () => Promise<ZodType<Output, Input>>,
): LazyResolver<Input, Output> {
  let loading: Promise<Resolver<Input, unknown, Output>> | null = null;
  const load = () => {
    loading ??= Promise.all([import('@hookform/resolvers/zod'), loadSchema()])
      .then(([{ zodResolver }, schema]) => zodResolver<Input, unknown, Output>(schema))
      .catch((error: unknown) => {
        loading = null;
        throw error;
      });
    return loading;
  };
  const resolver: Resolver<Input, unknown, Output> = async (values, context, options) => {
    let resolve: Resolver<Input, unknown, Output>;
    try {
      resolve = await load();
    } catch {
      // The form must say why nothing happens rather than fail silently.
      // (`root` is in every form's errors; the generic `Input` keeps the compiler from seeing it.)
      const errors = { root: { type: 'load', message: FORM_CHECKS_NOT_LOADED_MESSAGE } } as FieldErrors<Input>;
      return { values: {}, errors };
    }
    return resolve(values, context, options);
  };
  return Object.assign(resolver, {
    preload: () => {
      load().catch(() => undefined);
    },
  });
}
