import type { FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

/**
 * A react-hook-form resolver that checks the form with a zod schema loaded on first use: zod, its
 * resolver and the schema's module are imported when the form is first checked (its first submit),
 * not before the page can render. For the prerendered public forms (sign-in, sign-up), whose page
 * is shown and typed into before the scripts run: building zod's classes and the schemas was part of
 * the one task that runs the first load's code, the longest the sign-in page had (decision 0062).
 * A failed import is tried again at the next check.
 */
export function lazyZodResolver<Input extends FieldValues, Output>(
  loadSchema: () => Promise<ZodType<Output, Input>>,
): Resolver<Input, unknown, Output> {
  let loaded: Promise<Resolver<Input, unknown, Output>> | null = null;
  const load = () =>
    Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(([{ zodResolver }, schema]) =>
      zodResolver<Input, unknown, Output>(schema),
    );
  return async (values, context, options) => {
    loaded ??= load().catch((error: unknown) => {
      loaded = null;
      throw error;
    });
    return (await loaded)(values, context, options);
  };
}
