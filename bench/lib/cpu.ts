import { readFileSync } from 'node:fs';
import { sleep } from './stats.js';

// Kernel clock ticks per second; 100 on every Linux this runs on.
const CLOCK_TICKS = 100;

/** CPU seconds the whole machine has spent busy (steal excluded: that is another guest's). */
function machineBusySeconds(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const [user = 0, nice = 0, system = 0, _idle, _iowait, irq = 0, softirq = 0] = line.trim().split(/\s+/).slice(1).map(Number);
    return (user + nice + system + irq + softirq) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system, every thread) a process has used; null once it is gone. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

export type CpuShare = {
  seconds: number;
  /** Cores busy on average: 1.0 is one core all the time. */
  serverCores: number | null;
  benchCores: number;
  /** Local database server processes serving the server under test (PostgreSQL backends). */
  databaseCores: number | null;
  /** Everything else on the machine: other people's builds and tests make figures unreliable. */
  otherCores: number | null;
};

/** Starts watching who uses the CPU; the returned function tells the shares since. */
export function watchCpu(serverPid?: number, databasePids: readonly number[] = []): () => CpuShare {
  const started = performance.now();
  const machineBefore = machineBusySeconds();
  const serverBefore = serverPid === undefined ? null : processCpuSeconds(serverPid);
  const databaseBefore = new Map(databasePids.map((pid) => [pid, processCpuSeconds(pid)]));
  const benchBefore = process.cpuUsage();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const benchUsed = process.cpuUsage(benchBefore);
    const benchSeconds = (benchUsed.user + benchUsed.system) / 1e6;
    const serverAfter = serverPid === undefined ? null : processCpuSeconds(serverPid);
    const serverSeconds = serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore;
    let databaseSeconds = 0;
    for (const [pid, before] of databaseBefore) {
      const after = processCpuSeconds(pid);
      if (before !== null && after !== null) databaseSeconds += after - before;
    }
    const machineAfter = machineBusySeconds();
    const machineSeconds = machineBefore === null || machineAfter === null ? null : machineAfter - machineBefore;
    const other =
      machineSeconds === null ? null : Math.max(0, machineSeconds - benchSeconds - (serverSeconds ?? 0) - databaseSeconds);
    return {
      seconds,
      serverCores: serverSeconds === null ? null : serverSeconds / seconds,
      benchCores: benchSeconds / seconds,
      databaseCores: databaseBefore.size === 0 ? null : databaseSeconds / seconds,
      otherCores: other === null ? null : other / seconds,
    };
  };
}

/** Above this, other processes visibly disturb a measurement on a 2-core machine. */
export const NOISY_CORES = 0.25;

/**
 * Waits (at most `maxWaitMs`) until the rest of the machine is quiet, so a measurement does not
 * compete with someone else's build; returns the background load seen last.
 */
export async function waitForQuiet({ maxWaitMs, serverPid }: { maxWaitMs: number; serverPid?: number }): Promise<number | null> {
  const deadline = performance.now() + maxWaitMs;
  let last: number | null;
  do {
    const stop = watchCpu(serverPid);
    await sleep(500);
    last = stop().otherCores;
    if (last === null || last < NOISY_CORES) return last;
  } while (performance.now() < deadline);
  return last;
}
