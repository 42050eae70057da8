import { describe, expect, it } from 'vitest';
import { wrapSchemaConstants } from './lazy-schemas';

describe('wrapSchemaConstants', () => {
  it('wraps the top-level schema constants built by a call, exported or not', () => {
    const code = [
      "import { z } from 'zod';",
      'const NameSchema = z.string().min(1);',
      'export const BodySchema = z.object({ name: NameSchema });',
      'export const LIMIT = 3;',
      'const FieldSchema = (message) => z.string().min(1, message);',
      'function build() { const InnerSchema = z.string(); return InnerSchema; }',
    ].join('\n');
    const wrapped = wrapSchemaConstants(code) ?? '';
    expect(wrapped).toMatch(/^import \{ lazySchema as __lazySchema \} from ".+lazy-schema\.ts";\n/);
    expect(wrapped).toContain('const NameSchema = __lazySchema(() => z.string().min(1));');
    expect(wrapped).toContain('export const BodySchema = __lazySchema(() => z.object({ name: NameSchema }));');
    expect(wrapped).toContain('export const LIMIT = 3;');
    expect(wrapped).toContain('const FieldSchema = (message) => z.string().min(1, message);');
    expect(wrapped).toContain('const InnerSchema = z.string();');
  });

  it('leaves a module without schema constants unchanged', () => {
    expect(wrapSchemaConstants('export const ROLES = ["a"];')).toBeNull();
    expect(wrapSchemaConstants('export const SchemaName = "x"; const OtherSchema = Base;')).toBeNull();
  });
});
