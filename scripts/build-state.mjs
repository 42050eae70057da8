// Tells whether each workspace's build output is missing or older than its sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

export const WORKSPACES = [
  { name: 'packages/domain', sources: ['packages/domain/src'], output: 'packages/domain/dist/roles/roles.js' },
  { name: 'apps/server', sources: ['apps/server/src', 'packages/domain/src'], output: 'apps/server/dist/main.js' },
  {
    name: 'apps/web',
    sources: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/vite',
      'packages/domain/src',
    ],
    output: 'apps/web/dist/index.html',
  },
];

/** Workspaces whose output is missing or stale. */
export function staleWorkspaces() {
  return WORKSPACES.filter(({ sources, output }) => {
    const out = path.join(root, output);
    if (!existsSync(out)) return true;
    const built = statSync(out).mtimeMs;
    return sources.some((source) => {
      const full = path.join(root, source);
      return existsSync(full) && (statSync(full).isDirectory() ? newest(full) : statSync(full).mtimeMs) > built;
    });
  });
}
