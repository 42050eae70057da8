import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const SERVER_DIR = path.resolve(import.meta.dirname, '..');

export type ServerProcess = {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>`, where this process listens. */
  origin: string;
  output: () => string;
  /** SIGTERM, then resolves with the exit code once the process is gone. */
  stop: () => Promise<number | null>;
};

/**
 * Starts the real entry point (TypeScript sources through tsx) on a port of its own and resolves
 * once it says it is ready. `env` is all it gets besides PATH.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const origin = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (listening && output.includes('PatientSim is ready')) {
        child.stdout?.off('data', onData);
        resolve(listening);
      }
    };
    child.stdout?.on('data', onData);
    void exited.then(() => reject(new Error(`the server exited before it was ready:\n${output}`)));
  });
  return {
    child,
    origin,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
