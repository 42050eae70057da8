// `npm start`: builds what is missing or stale, then runs the server (it migrates and seeds at start;
// a new embedded database is prepared by a short-lived process of its own, decision 0017).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { staleWorkspaces } from './build-state.mjs';

const root = path.resolve(import.meta.dirname, '..');
for (const workspace of staleWorkspaces()) {
  console.log(`Building ${workspace.name}...`);
  const result = spawnSync('npm', ['run', 'build', '-w', workspace.name], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
