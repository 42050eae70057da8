import { performance } from 'node:perf_hooks';
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { ERROR_CODES, type ErrorBody } from '@patientsim/domain/errors/error-codes';
import type { Database } from '../../db/client.js';
import { createPasswordHashWait } from '../../identity/password.js';
import { createWaitProbe } from '../../lib/wait-probe.js';

/**
 * Overload protection through `@fastify/under-pressure` (decisions 0018 and 0047). It samples the
 * event-loop delay, runs our check of the other waits on its schedule, and hands every request that
 * comes while the check fails to our pressure handler, which refuses API work with 503
 * `SERVER_BUSY` and `Retry-After` before its body is read. How long new work would wait is
 * measured, never estimated from a request count, at each place work queues up, and end to end:
 * - the JavaScript thread (the embedded database runs on it too): the event-loop delay;
 * - password hashing: how long the oldest hash has waited for its turn, or how long a no-op task
 *   waits for a thread of libuv's pool, where they run;
 * - the database: how long a trivial query waits for a connection (PostgreSQL's pool) or for the
 *   embedded engine, which runs one statement at a time;
 * - the API requests themselves: the fastest answer of the last second, or, when answers stall,
 *   how long the fourth-oldest request in progress has waited. When even the fastest answer was
 *   slow, a backlog stands in front of every request, wherever it waits (a machine short of CPU
 *   slows every queue a little and none of them enough to show).
 * Requests are refused only while the server holds a backlog of its own; those admitted finish.
 */
export type LoadSheddingOptions = {
  /** Off: nothing is measured and nothing is refused. */
  enabled: boolean;
  /** How often the measures are taken. */
  sampleIntervalMs: number;
  /** Mean event-loop delay over one sample, past which API work is refused. */
  maxEventLoopDelayMs: number;
  /** Wait of a password hash queued now, past which API work is refused. */
  maxThreadPoolDelayMs: number;
  /** Wait for the database, past which API work is refused. */
  maxDatabaseDelayMs: number;
  /**
   * The fastest API answer of the last second (of at least four), or the age of the fourth-oldest
   * API request in progress, past which API work is refused.
   */
  maxRequestDelayMs: number;
  /**
   * API requests in progress below which nothing is refused, whatever the measures say: turning one
   * of a few requests away frees nothing, and their waits come from elsewhere (a machine busy with
   * other processes, a cold start). Above what one person's screen asks for at once.
   */
  minBacklog: number;
};

/**
 * Limits tried on two cores with `npm run bench -- overload` (decision 0018 has the figures, and
 * why each measure is there).
 */
export const LOAD_SHEDDING_DEFAULTS: LoadSheddingOptions = {
  enabled: true,
  sampleIntervalMs: 100,
  maxEventLoopDelayMs: 100,
  maxThreadPoolDelayMs: 500,
  maxDatabaseDelayMs: 1_000,
  maxRequestDelayMs: 1_000,
  minBacklog: 8,
};

/** What the last sample measured, in milliseconds, and whether API work is being refused. */
export type PressureReading = {
  eventLoopDelayMs: number;
  threadPoolDelayMs: number;
  databaseDelayMs: number;
  /**
   * The fastest of the API answers of the last second (0 with fewer than four), or the age of the
   * fourth-oldest API request in progress when that is longer.
   */
  requestDelayMs: number;
  /** API requests admitted and not yet answered. */
  inFlight: number;
  /** Whether the measures are past their limits (requests are refused once the backlog is reached too). */
  isShedding: boolean;
  /** Requests refused since the start. */
  shedCount: number;
};

/**
 * Routes under /api that are always served: renewing an ID token and signing out keep the people
 * already signed in going (a failed renewal logs the user out), cost well under a millisecond, and
 * their number is bounded by the sessions, not by arrivals.
 */
const ALWAYS_SERVED = new Set(['POST /api/users/auth/token', 'POST /api/users/auth/sign-out']);

/**
 * The API sheds; nothing else does: the health checks answer from their own checks (a shed would
 * make an overloaded server look dead, or a dead database look merely busy), and the web app's
 * files, the identity provider's keys and discovery document, and media are cheap and needed to
 * show the sign-in screen that tells people to try again (decision 0018).
 */
export function isSheddable(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route === undefined || !route.startsWith('/api/')) return false;
  return !ALWAYS_SERVED.has(`${request.method} ${route}`);
}

/** The answers the end-to-end measure looks at: those of the last second, when there are enough. */
const REQUEST_WINDOW_MS = 1_000;
const REQUEST_WINDOW_MIN = 4;

/** The fastest of the answers of the last `REQUEST_WINDOW_MS`, oldest dropped as they age. */
function createAnswerWindow() {
  const answers: { at: number; ms: number }[] = [];
  return {
    add(at: number, ms: number) {
      answers.push({ at, ms });
    },
    fastest(now: number): number {
      let stale = 0;
      while (stale < answers.length && answers[stale]!.at < now - REQUEST_WINDOW_MS) stale += 1;
      answers.splice(0, stale);
      if (answers.length < REQUEST_WINDOW_MIN) return 0;
      return answers.reduce((fastest, answer) => Math.min(fastest, answer.ms), Number.POSITIVE_INFINITY);
    },
  };
}

/** How long the `rank`-th oldest of the requests in progress (kept in arrival order) has waited; 0 with fewer. */
function waitOfOldest(inProgress: Map<unknown, number>, rank: number, now: number): number {
  let seen = 0;
  for (const startedAt of inProgress.values()) {
    seen += 1;
    if (seen === rank) return now - startedAt;
  }
  return 0;
}

declare module 'fastify' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyInstance {
    /** The last pressure sample (decision 0047). */
    pressure: () => PressureReading;
  }
}

export default fp<{ db: Database; options?: Partial<LoadSheddingOptions> }>(
  async (app, { db, options }) => {
    const settings = { ...LOAD_SHEDDING_DEFAULTS, ...options };
    const reading: PressureReading = {
      eventLoopDelayMs: 0,
      threadPoolDelayMs: 0,
      databaseDelayMs: 0,
      requestDelayMs: 0,
      inFlight: 0,
      isShedding: false,
      shedCount: 0,
    };
    app.decorate('pressure', () => ({ ...reading }));
    if (!settings.enabled) return;

    const passwordHashWait = createPasswordHashWait();
    const databaseWait = createWaitProbe((done) => {
      db.execute(sql`select 1`).then(done, done);
    });
    const answers = createAnswerWindow();
    // The API requests let through and not yet answered, in the order they came, with when.
    const admitted = new Map<FastifyRequest, number>();
    // From ready on: compiling schemas and registering routes at start is not load.
    let isReady = false;
    let lastCheckAt = 0;
    let checksOverLimit = 0;

    /** under-pressure's health check, run every sample: false while API work is to be refused. */
    const checkWaits = async () => {
      if (!isReady) return true;
      const now = performance.now();
      // The check's own lateness counts too: a loop blocked for the whole interval records nothing
      // (under-pressure then reads the delay as infinite; the lateness says how long it was).
      const ownDelay = Math.max(0, now - lastCheckAt - settings.sampleIntervalMs);
      lastCheckAt = now;
      const { eventLoopDelay } = app.memoryUsage();
      reading.eventLoopDelayMs = Math.max(ownDelay, Number.isFinite(eventLoopDelay) ? eventLoopDelay : 0);
      reading.threadPoolDelayMs = passwordHashWait(now);
      reading.databaseDelayMs = databaseWait(now);
      // Answers that stall count too: four requests waiting that long are a backlog as well.
      reading.requestDelayMs = Math.max(answers.fastest(now), waitOfOldest(admitted, REQUEST_WINDOW_MIN, now));
      const isOverLimit =
        reading.eventLoopDelayMs > settings.maxEventLoopDelayMs ||
        reading.threadPoolDelayMs > settings.maxThreadPoolDelayMs ||
        reading.databaseDelayMs > settings.maxDatabaseDelayMs ||
        reading.requestDelayMs > settings.maxRequestDelayMs;
      checksOverLimit = isOverLimit ? checksOverLimit + 1 : 0;
      const wasShedding = reading.isShedding;
      // Two samples in a row: one long garbage collection or query is not an overload.
      reading.isShedding = checksOverLimit >= 2;
      if (reading.isShedding !== wasShedding) {
        app.log.warn(
          {
            eventLoopDelayMs: Math.round(reading.eventLoopDelayMs),
            threadPoolDelayMs: Math.round(reading.threadPoolDelayMs),
            databaseDelayMs: Math.round(reading.databaseDelayMs),
            requestDelayMs: Math.round(reading.requestDelayMs),
            inFlight: reading.inFlight,
            shedCount: reading.shedCount,
          },
          reading.isShedding ? 'overloaded: refusing new API requests' : 'load back to normal',
        );
      }
      return !reading.isShedding;
    };

    /**
     * Called by under-pressure for each request while the check fails. Nothing (undefined) lets the
     * request through; a body is sent as the answer, and nothing after this hook runs.
     */
    const refuseApiWork = (request: FastifyRequest, reply: FastifyReply): ErrorBody | undefined => {
      if (!isSheddable(request) || admitted.size < settings.minBacklog) return undefined;
      reading.shedCount += 1;
      // Come back once the longest measured wait has passed; at least a second.
      const waitMs = Math.max(
        reading.eventLoopDelayMs,
        reading.threadPoolDelayMs,
        reading.databaseDelayMs,
        reading.requestDelayMs,
      );
      reply.status(503);
      reply.header('retry-after', String(Math.min(30, Math.max(1, Math.ceil(waitMs / 1000)))));
      reply.header('cache-control', 'no-store');
      return { statusCode: 503, code: 'SERVER_BUSY', message: ERROR_CODES.SERVER_BUSY.message };
    };

    // No limit of under-pressure's own: the event-loop delay it samples is judged with the other
    // waits, in the check, by the same rule (two samples in a row, and a backlog).
    await app.register(underPressure, {
      sampleInterval: settings.sampleIntervalMs,
      healthCheck: checkWaits,
      healthCheckInterval: settings.sampleIntervalMs,
      // It sends what the handler returns (its README says so); its types only allow nothing.
      pressureHandler: refuseApiWork as unknown as FastifyUnderPressureOptions['pressureHandler'],
    });

    app.addHook('onReady', async () => {
      isReady = true;
      lastCheckAt = performance.now();
    });

    // After under-pressure's hook: only the requests it let through get here. Callback hooks, as
    // under-pressure's: they run on every request, and need no promise.
    app.addHook('onRequest', (request, reply, done) => {
      if (!isSheddable(request)) return done();
      admitted.set(request, performance.now());
      reading.inFlight = admitted.size;
      // The response closes whether it was sent or its client hung up: either way the request
      // leaves the backlog (a hang-up after the whole body arrived fires neither onResponse nor
      // onRequestAbort, and a request left here forever would keep the server shedding).
      reply.raw.once('close', () => {
        if (admitted.delete(request)) reading.inFlight = admitted.size;
      });
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      // Only the answers of admitted API requests measure the end-to-end wait (not the sheds).
      if (isSheddable(request) && reply.statusCode !== 503) answers.add(performance.now(), reply.elapsedTime);
      done();
    });
  },
  { name: 'load-shedding' },
);
