import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { parseAst } from 'vite';

/** The helper every wrapped schema is built through. */
const LAZY_SCHEMA_MODULE = fileURLToPath(new URL('../src/lib/lazy-schema.ts', import.meta.url));

/** Modules whose schemas are wrapped: the domain package's sources and the app's, not tests. */
const SCHEMA_MODULES = /[\\/](?:packages[\\/]domain|apps[\\/]web)[\\/]src[\\/].+\.tsx?$/;
const TEST_MODULES = /\.test\.tsx?$/;

type Node = { type: string; start: number; end: number };
type Declarator = Node & { id: Node & { name?: string }; init: Node | null };
type Declaration = Node & { kind?: string; declarations?: Declarator[]; declaration?: Declaration | null };

/** The initialisers of the top-level `const <Name>Schema = <call>` declarations: what is built at evaluation. */
function schemaInitialisers(body: readonly Declaration[]): Node[] {
  const found: Node[] = [];
  for (const statement of body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
    for (const declarator of declaration.declarations ?? []) {
      const name = declarator.id.type === 'Identifier' ? declarator.id.name : undefined;
      // A call (`z.object(...)`, `Base.extend(...)`, `z.array(...).min(1)`) builds a schema; an
      // arrow function building one on demand is left alone.
      if (name?.endsWith('Schema') && declarator.init?.type === 'CallExpression') found.push(declarator.init);
    }
  }
  return found;
}

/**
 * `code` with every top-level `const <Name>Schema = <call>` wrapped as
 * `const <Name>Schema = lazySchema(() => <call>)`, or null when it declares none.
 */
export function wrapSchemaConstants(code: string): string | null {
  if (!code.includes('Schema')) return null;
  const initialisers = schemaInitialisers(parseAst(code).body);
  if (initialisers.length === 0) return null;
  let out = code;
  for (const { start, end } of [...initialisers].sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, start)}__lazySchema(() => ${out.slice(start, end)})${out.slice(end)}`;
  }
  return `import { lazySchema as __lazySchema } from ${JSON.stringify(LAZY_SCHEMA_MODULE)};\n${out}`;
}

/**
 * Builds the schemas of the domain package and of the app on first use rather than when their
 * module is evaluated (`src/lib/lazy-schema.ts`, `wrapSchemaConstants`). Production build only;
 * the unit tests and the server use the schemas as written.
 */
export function lazySchemas(): Plugin {
  return {
    name: 'patientsim:lazy-schemas',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      const file = id.split('?', 1)[0] ?? id;
      if (!SCHEMA_MODULES.test(file) || TEST_MODULES.test(file) || file === LAZY_SCHEMA_MODULE) return null;
      const wrapped = wrapSchemaConstants(code);
      return wrapped === null ? null : { code: wrapped, map: null };
    },
  };
}
