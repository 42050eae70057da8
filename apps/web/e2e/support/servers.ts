/** One of the servers the runner starts (see run.mjs): its origin and where its SMTP catcher files mail. */
export type E2EServer = { baseUrl: string; mailDir: string };

/** The runner's servers, one a Playwright worker, in the order of the workers' parallel index. */
export function e2eServers(): E2EServer[] {
  const raw = process.env.E2E_SERVERS;
  if (!raw) throw new Error('E2E_SERVERS is not set: run the browser tests with `npm run test:e2e`.');
  return JSON.parse(raw) as E2EServer[];
}

/**
 * The server of the worker with this parallel index. Each worker has a server and a demo database
 * of its own, so a spec that changes the demo data changes it only for the specs after it on the
 * same worker.
 */
export function e2eServerOf(parallelIndex: number): E2EServer {
  const servers = e2eServers();
  const server = servers[parallelIndex];
  if (!server) {
    throw new Error(
      `No server for worker ${parallelIndex}: the runner started ${servers.length}. Set E2E_WORKERS rather than --workers.`,
    );
  }
  return server;
}
