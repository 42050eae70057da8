import type { Plugin } from 'vite';

/** Module ids matching a pattern, and every module they import statically (not across dynamic imports). */
export type StaticClosure = (roots: RegExp) => ReadonlySet<string>;

/**
 * Records the static imports of every module of the build, so that chunk groups can be defined by
 * what a page imports (`closure`). Code splitting runs once every module is parsed, so the graph
 * is complete by the time a group's `test` asks.
 */
export function moduleGraph(): { plugin: Plugin; closure: StaticClosure } {
  const imports = new Map<string, readonly string[]>();
  const closures = new Map<string, ReadonlySet<string>>();
  const plugin: Plugin = {
    name: 'patientsim:module-graph',
    apply: 'build',
    buildStart() {
      imports.clear();
      closures.clear();
    },
    moduleParsed(info) {
      imports.set(info.id, info.importedIds);
    },
  };
  const closure: StaticClosure = (roots) => {
    const key = roots.toString();
    const known = closures.get(key);
    if (known) return known;
    const seen = new Set<string>();
    const pending = [...imports.keys()].filter((id) => roots.test(id.split('\\').join('/')));
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      pending.push(...(imports.get(id) ?? []));
    }
    closures.set(key, seen);
    return seen;
  };
  return { plugin, closure };
}
