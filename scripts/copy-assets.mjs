// Copies the server's non-TypeScript files (SQL migrations, seed media) next to the compiled code.
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';

const server = path.resolve(import.meta.dirname, '../apps/server');
for (const folder of ['db/migrations', 'seed/assets']) {
  const from = path.join(server, 'src', folder);
  if (existsSync(from)) cpSync(from, path.join(server, 'dist', folder), { recursive: true });
}
