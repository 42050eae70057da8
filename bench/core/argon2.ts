import { watchCpu } from '../lib/cpu.js';
import { hashPassword, verifyPassword } from '../../apps/server/src/identity/password.js';

export type ThroughputFigures = {
  operations: number;
  seconds: number;
  perSecond: number;
  /** Mean wall time of one call while `concurrency` calls run at once. */
  meanMs: number;
  concurrency: number;
  /** Cores this process kept busy, and cores everything else on the machine used meanwhile. */
  cores: number;
  otherCores: number | null;
};

/** Calls `operation` from `concurrency` loops for about `seconds` and counts completions. */
async function throughput(operation: () => Promise<unknown>, concurrency: number, seconds: number): Promise<ThroughputFigures> {
  const stopWatch = watchCpu();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let operations = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      await operation();
      operations += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = stopWatch();
  return {
    operations,
    seconds: elapsed,
    perSecond: operations / elapsed,
    meanMs: (elapsed * 1000 * concurrency) / operations,
    concurrency,
    cores: cpu.benchCores,
    otherCores: cpu.otherCores,
  };
}

/**
 * Raw argon2id throughput in this process with the server's own hashing functions: the ceiling a
 * sign-in (one verify each) can reach on this machine.
 */
export async function measureArgon2({
  password,
  concurrency,
  seconds,
}: {
  password: string;
  concurrency: number;
  seconds: number;
}) {
  const stored = await hashPassword(password);
  if (!(await verifyPassword({ hash: stored, password }))) throw new Error('verifyPassword rejected the hash it was given');
  // Warm the thread pool and the native module before measuring.
  await Promise.all([verifyPassword({ hash: stored, password }), hashPassword(password)]);

  const hash = await throughput(() => hashPassword(password), concurrency, seconds);
  const verify = await throughput(
    async () => {
      if (!(await verifyPassword({ hash: stored, password }))) throw new Error('verifyPassword returned false');
    },
    concurrency,
    seconds,
  );
  return { hash, verify };
}

/** Raw verify throughput alone (a second sample, taken right after a sign-in load). */
export async function measureVerify({
  password,
  concurrency,
  seconds,
}: {
  password: string;
  concurrency: number;
  seconds: number;
}) {
  const stored = await hashPassword(password);
  return throughput(
    async () => {
      if (!(await verifyPassword({ hash: stored, password }))) throw new Error('verifyPassword returned false');
    },
    concurrency,
    seconds,
  );
}
