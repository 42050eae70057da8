import { describe, expect, it } from 'vitest';
import { afterTrialRun, chosenMode, PLANNING_TRIAL, type Trial, trialMode } from './statement-planning.js';

describe('the choice after a trial', () => {
  it('keeps the generic plan only when it ran clearly faster', () => {
    expect(chosenMode({ auto: [2, 2.2, 2.4], generic: [1.5, 1.6, 9] })).toBe('generic');
    expect(chosenMode({ auto: [2, 2.2, 2.4], generic: [2.1, 2.1, 2.1] })).toBe('auto');
    expect(chosenMode({ auto: [18, 20, 25], generic: [500, 550, 600] })).toBe('auto');
  });

  it('judges each kind by its fastest run: a pause in the middle of runs does not decide', () => {
    // A garbage collection or another process's time slice lands in two of the generic runs.
    expect(chosenMode({ auto: [5.1, 5, 5.2], generic: [3.3, 9, 8.5] })).toBe('generic');
    // ... or in two of PostgreSQL's own.
    expect(chosenMode({ auto: [3.4, 9, 8.5], generic: [3.3, 3.2, 3.3] })).toBe('auto');
  });

  /** A trial whose runs as PostgreSQL plans took `ms` each, up to its first run on the generic plan. */
  function afterAutoRuns(ms: number[]): Trial {
    const { warmUp, timed } = PLANNING_TRIAL;
    let trial: Trial = { runs: 0, auto: [], generic: [] };
    for (let run = 0; run < warmUp + timed; run++) {
      const next = afterTrialRun(trial, 'auto', ms[Math.max(0, run - warmUp)] ?? 0);
      if (!next.trial) throw new Error('the trial ended early');
      trial = next.trial;
    }
    expect(trial.auto).toEqual(ms);
    return trial;
  }

  /** The trial after `ms`, runs on the generic plan. */
  function afterGenericRuns(trial: Trial, ms: number[]): ReturnType<typeof afterTrialRun> {
    let next: ReturnType<typeof afterTrialRun> = { trial };
    for (const each of ms) {
      if (!next.trial) break;
      next = afterTrialRun(next.trial, 'generic', each);
    }
    return next;
  }

  it(`ends the trial at two runs on the generic plan ${PLANNING_TRIAL.abandonAfter} times as slow as the slowest PostgreSQL planned`, () => {
    const { abandonAfter, timed } = PLANNING_TRIAL;
    const trial = afterAutoRuns(Array(timed).fill(10));
    const slow = 10 * abandonAfter + 1;
    // The first run on the generic plan (which plans it) is not timed, but it is judged.
    expect(afterGenericRuns(trial, [slow, slow])).toEqual({ chosen: 'auto' });
    expect(afterGenericRuns(trial, [12, slow, slow])).toEqual({ chosen: 'auto' });
    expect(afterGenericRuns(trial, [12, ...Array(timed).fill(7)])).toEqual({ chosen: 'generic' });
  });

  it('does not end the trial at one slow run on the generic plan: a pause is not a plan', () => {
    const { abandonAfter, timed } = PLANNING_TRIAL;
    const trial = afterAutoRuns(Array(timed).fill(5));
    const paused = 5 * abandonAfter + 4;
    expect(afterGenericRuns(trial, [3.5, paused, ...Array(timed - 1).fill(3.3)])).toEqual({ chosen: 'generic' });
    expect(afterGenericRuns(trial, [paused, 3.3, paused, ...Array(timed - 1).fill(3.3)])).toEqual({ chosen: 'generic' });
  });

  it('runs the trial as PostgreSQL plans first, then on the generic plan', () => {
    const { warmUp, timed } = PLANNING_TRIAL;
    expect(trialMode(0)).toBe('auto');
    expect(trialMode(warmUp + timed - 1)).toBe('auto');
    expect(trialMode(warmUp + timed)).toBe('generic');
  });
});
