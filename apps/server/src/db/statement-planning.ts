/**
 * How the server's named statements (`db/prepared.ts`) are planned, on either engine: PostgreSQL
 * has no per-statement setting, only the session's plan_cache_mode, so each engine applies the
 * choice its own way (`db/embedded-statements.ts`, `db/postgres-statements.ts`); the trial that
 * chooses is the same for both.
 */

/**
 * How PostgreSQL plans a named statement's runs: as it plans any named statement (`auto`: a custom
 * plan for each of the first five runs, then the generic plan when its estimate is no worse than
 * theirs); always with the generic plan, planned once (`generic`); or as whichever of the two ran
 * faster on the statement's own first runs (`measured`, see PLANNING_TRIAL). A statement whose
 * estimates keep PostgreSQL planning it anew on every run, though its generic plan runs as fast,
 * gains from `measured`: planning in the embedded engine costs as much as running a small query.
 * Only measuring tells: the generic plan of one of the case list's statements ran thirty times
 * slower than its custom plans.
 */
export type StatementPlanning = 'auto' | 'generic' | 'measured';

/** The session's plan_cache_mode, as PostgreSQL names its two settings used here. */
export type PlanCacheMode = 'auto' | 'generic';

/**
 * A `measured` statement's trial: its first `warmUp` runs as PostgreSQL plans them (not timed:
 * PostgreSQL makes its custom plans then), `timed` more the same way, one run on the generic plan
 * (which plans it, not timed) and `timed` more on it; then it keeps the generic plan if its
 * fastest run took at most `genericShare` of the fastest of PostgreSQL's choice, else PostgreSQL's
 * own choice. Each kind is judged by its fastest run: a garbage collection or another process's
 * time slice only adds to a run, and a trial that met one in the middle chose the slower plan for
 * the life of the process. Two runs in a row on the generic plan that each take `abandonAfter`
 * times as long as the slowest of PostgreSQL's choice end the trial at once: a bad generic plan is
 * met twice, not `timed` times, on the one thread the embedded engine runs on, and one pause does
 * not end it.
 */
export const PLANNING_TRIAL = { warmUp: 5, timed: 3, genericShare: 0.9, abandonAfter: 2 } as const;

export type TrialPlan = { warmUp: number; timed: number; genericShare: number; abandonAfter: number };

export type Trial = {
  runs: number;
  auto: number[];
  generic: number[];
  /** How many runs on the generic plan in a row, up to the last, were over the bound. */
  slowInARow?: number;
};

/** The plan_cache_mode of a `measured` statement's next run, while its trial lasts. */
export function trialMode(runs: number, plan: TrialPlan = PLANNING_TRIAL): PlanCacheMode {
  return runs < plan.warmUp + plan.timed ? 'auto' : 'generic';
}

/** Whether run `runs` (counted from 0) of the trial is timed. */
function isTimedRun(runs: number, plan: TrialPlan): boolean {
  const { warmUp, timed } = plan;
  return (runs >= warmUp && runs < warmUp + timed) || runs > warmUp + timed;
}

/** The mode a `measured` statement keeps after its trial: the generic plan only when clearly faster. */
export function chosenMode(trial: Pick<Trial, 'auto' | 'generic'>, plan: TrialPlan = PLANNING_TRIAL): PlanCacheMode {
  if (trial.auto.length === 0 || trial.generic.length === 0) return 'auto';
  return Math.min(...trial.generic) <= Math.min(...trial.auto) * plan.genericShare ? 'generic' : 'auto';
}

/** How many runs a trial takes at most. */
export const trialRuns = (plan: TrialPlan = PLANNING_TRIAL) => plan.warmUp + 2 * plan.timed + 1;

/**
 * A trial after one more run of `ms` in `mode`: still under way (`trial`), or over with the mode
 * the statement keeps (`chosen`).
 */
export function afterTrialRun(
  trial: Trial,
  mode: PlanCacheMode,
  ms: number,
  plan: TrialPlan = PLANNING_TRIAL,
): { trial: Trial; chosen?: undefined } | { trial?: undefined; chosen: PlanCacheMode } {
  const next: Trial = {
    ...trial,
    runs: trial.runs + 1,
    [mode]: isTimedRun(trial.runs, plan) ? [...trial[mode], ms] : trial[mode],
  };
  if (mode === 'generic') {
    const isSlow = ms > Math.max(...trial.auto) * plan.abandonAfter;
    next.slowInARow = isSlow ? (trial.slowInARow ?? 0) + 1 : 0;
    if (next.slowInARow >= 2) return { chosen: 'auto' };
  }
  return next.runs >= trialRuns(plan) ? { chosen: chosenMode(next, plan) } : { trial: next };
}
