import type { ZodType } from 'zod';

/** Shown as the form's error when its checks could not be loaded (a dropped connection). */
export const FORM_CHECKS_NOT_LOADED_MESSAGE = 'The form could not be checked. Check your connection and try again.';

/** A validation's outcome: the parsed values, or a message per invalid field and a form-level message. */
export type SchemaValidation<Input, Output> =
  | { isValid: true; values: Output }
  | { isValid: false; fieldErrors: Partial<Record<keyof Input & string, string>>; formError: string | null };

/** Validates with a schema loaded when first needed; `preload` starts loading it early. */
export type LazySchemaValidator<Input, Output> = {
  validate: (values: Input) => Promise<SchemaValidation<Input, Output>>;
  preload: () => void;
};

/**
 * Validation with a domain schema loaded on first use: a form of the first page (sign-in)
 * validates with the same schema as the server without putting zod in the first load. The form
 * calls `preload` when the person starts filling it in, so the schema is there by the time they
 * submit. Each invalid field gets the message of its first issue. A failed load answers the form
 * error `FORM_CHECKS_NOT_LOADED_MESSAGE`, and is tried again on the next validation.
 */
export function lazySchemaValidator<Input extends Record<string, unknown>, Output>(
  loadSchema: () => Promise<ZodType<Output, Input>>,
): LazySchemaValidator<Input, Output> {
  let loading: Promise<ZodType<Output, Input>> | null = null;
  const load = () => {
    loading ??= loadSchema().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
  return {
    preload: () => {
      load().catch(() => undefined);
    },
    validate: async (values) => {
      let schema: ZodType<Output, Input>;
      try {
        schema = await load();
      } catch {
        // The form must say why nothing happens rather than fail silently.
        return { isValid: false, fieldErrors: {}, formError: FORM_CHECKS_NOT_LOADED_MESSAGE };
      }
      const parsed = schema.safeParse(values);
      if (parsed.success) return { isValid: true, values: parsed.data };
      const fieldErrors: Partial<Record<keyof Input & string, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (typeof field === 'string' && !(field in fieldErrors)) fieldErrors[field as keyof Input & string] = issue.message;
      }
      return { isValid: false, fieldErrors, formError: null };
    },
  };
}
