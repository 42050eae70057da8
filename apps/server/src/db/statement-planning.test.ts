import { describe, expect, it } from 'vitest';
import { afterTrialRun, chosenMode, PLANNING_TRIAL, type Trial, trialMode } from './statement-planning.js';

describe('the choice after a trial', () => {
  it('keeps the generic plan only when it ran clearly faster', () => {
    expect(chosenMode({ auto: [2, 2.2, 2.4], generic: [1.5, 1.6, 9] })).toBe('generic');
    expect(chosenMode({ auto: [2, 2.2, 2.4], generic: [2.1, 2.1, 2.1] })).toBe('auto');
    expect(chosenMode({ auto: [18, 20, 25], generic: [500, 550, 600] })).toBe('auto');
  });

  it('ends the trial at a run on the generic plan twice as slow as PostgreSQL planned it', () => {
    const { warmUp, timed } = PLANNING_TRIAL;
    let trial: Trial = { runs: 0, auto: [], generic: [] };
    for (let run = 0; run < warmUp + timed; run++) {
      const next = afterTrialRun(trial, 'auto', 10);
      if (!next.trial) throw new Error('the trial ended early');
      trial = next.trial;
    }
    expect(trial.auto).toEqual(Array(timed).fill(10));
    expect(afterTrialRun(trial, 'generic', 21)).toEqual({ chosen: 'auto' });
    const planned = afterTrialRun(trial, 'generic', 12);
    if (!planned.trial) throw new Error('the trial ended at a run of 12 ms');
    let next: ReturnType<typeof afterTrialRun> = planned;
    for (let run = 0; run < timed && next.trial; run++) next = afterTrialRun(next.trial, 'generic', 7);
    expect(next).toEqual({ chosen: 'generic' });
  });

  it('runs the trial as PostgreSQL plans first, then on the generic plan', () => {
    const { warmUp, timed } = PLANNING_TRIAL;
    expect(trialMode(0)).toBe('auto');
    expect(trialMode(warmUp + timed - 1)).toBe('auto');
    expect(trialMode(warmUp + timed)).toBe('generic');
  });
});
