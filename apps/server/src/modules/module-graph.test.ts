import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MODULES = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The module folder a path lies in, or null outside modules/. */
function moduleOf(file: string): string | null {
  const relative = path.relative(MODULES, file);
  if (relative.startsWith('..') || !relative.includes(path.sep)) return null;
  return relative.split(path.sep)[0] ?? null;
}

/** For each module folder, the other module folders its source imports (static, re-exported and dynamic imports). */
function readModuleGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(MODULES)) {
    const from = moduleOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = moduleOf(path.resolve(path.dirname(file), fileName));
      if (to && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** Every loop between module folders (the strongly connected components of more than one), each sorted by name. */
function findCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  // Tarjan's algorithm: each module gets an index in visiting order and the lowest index it reaches back to.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (name: string) => {
    index.set(name, index.size);
    low.set(name, index.get(name)!);
    stack.push(name);
    for (const next of graph.get(name) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(name, Math.min(low.get(name)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(name, Math.min(low.get(name)!, index.get(next)!));
      }
    }
    if (low.get(name) !== index.get(name)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== name);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const name of [...graph.keys()].sort()) if (!index.has(name)) visit(name);
  return cycles;
}

describe('module graph', () => {
  it('finds a loop, direct or through other modules, and only a loop', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a', 'e'])],
      ['e', new Set(['d'])],
      ['f', new Set(['a'])],
    ]);
    expect(findCycles(graph)).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
    expect(findCycles(new Map([['a', new Set(['b'])]]))).toEqual([]);
  });

  it('reads the imports between module folders, multi-line and re-exports included', () => {
    const graph = readModuleGraph();
    expect(graph.get('case-copy')).toContain('cases');
    expect(graph.get('invitations')).toContain('users');
  });

  it('has no modules that import each other, directly or through others', () => {
    const graph = readModuleGraph();
    // Each loop named by the imports that make it, e.g. "users -> account, account -> users".
    const loops = findCycles(graph).map((loop) =>
      loop
        .flatMap((from) => [...(graph.get(from) ?? [])].filter((to) => loop.includes(to)).map((to) => `${from} -> ${to}`))
        .join(', '),
    );
    expect(loops, 'modules that import each other: let the lower one not import the higher').toEqual([]);
  });
});
