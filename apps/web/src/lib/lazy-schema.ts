/**
 * A stand-in for the schema `build` returns, built on first use: the first time any property of
 * it is read (`safeParse`, `_zod`, `shape`...). The production build wraps the top-level schema
 * constants of the domain package and of the app with it (`vite/lazy-schemas.ts`): zod builds a
 * schema object by object, tens of microseconds each, and a page's chunks declare hundreds of
 * them, most of which that page never uses. Without it every one is built while the chunk is
 * evaluated, in the page's first long task.
 *
 * Everything a schema is used for goes through its properties (zod's methods are bound to the
 * schema they belong to, and `instanceof` checks read `_zod`), so the stand-in behaves as the
 * schema; only identity differs (`lazySchema(build) !== build()`), and nothing compares schemas.
 */
export function lazySchema<Schema extends object>(build: () => Schema): Schema {
  let built: Schema | null = null;
  const schema = () => {
    built ??= build();
    return built;
  };
  return new Proxy({} as Schema, {
    get: (_target, key) => Reflect.get(schema(), key),
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may not report a property its (empty) target lacks as non-configurable.
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
