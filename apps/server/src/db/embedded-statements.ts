import { type PGlite, parse, protocol, type QueryOptions, type Results } from '@electric-sql/pglite';
import { afterTrialRun, type PlanCacheMode, type StatementPlanning, type Trial, trialMode } from './statement-planning.js';

/**
 * Named statements on the embedded engine. PGlite's `query` runs every statement through six
 * protocol calls into the database (parse, describe, bind, describe, execute, sync), and the parse
 * has PostgreSQL parse and plan the text again each time. A statement the server names
 * (`db/prepared.ts`, the sign-in's) is parsed once here instead, under a name of its own, and then
 * runs as one call of bind, execute and sync, with the result's description kept from the parse:
 * what node-postgres does with a named statement on PostgreSQL (decision 0024).
 */

type BackendMessage = Parameters<typeof parse.parseResults>[0][number];

type EmbeddedStatement = {
  name: string;
  planning: StatementPlanning;
  /** A `measured` statement's trial, until it has chosen (`chosen`). */
  trial?: Trial;
  chosen?: PlanCacheMode;
  /** Set once PostgreSQL has parsed the statement: its parameter types and its row description. */
  described?: { parameterTypes: number[]; rowDescription: BackendMessage[] };
};

const statementsOf = new WeakMap<PGlite, Map<string, EmbeddedStatement>>();

function statementsFor(client: PGlite): Map<string, EmbeddedStatement> {
  let statements = statementsOf.get(client);
  if (!statements) {
    statements = new Map();
    statementsOf.set(client, statements);
  }
  return statements;
}

/**
 * Has `client` run the SQL text `text` as a named statement from now on, planned as `planning`
 * says. The name is the client's own (one per text), so two texts can never share one.
 */
export function nameEmbeddedStatement(client: PGlite, text: string, planning: StatementPlanning = 'auto'): void {
  const statements = statementsFor(client);
  if (statements.has(text)) return;
  statements.set(text, {
    name: `named_${statements.size + 1}`,
    planning,
    ...(planning === 'measured' ? { trial: { runs: 0, auto: [], generic: [] } } : {}),
  });
}

/** The plan_cache_mode a statement's next run takes. */
function modeOf(statement: EmbeddedStatement): PlanCacheMode {
  if (statement.planning !== 'measured') return statement.planning;
  return statement.chosen ?? trialMode(statement.trial?.runs ?? 0);
}

/** Counts a `measured` statement's run of `ms` during its trial, and chooses at its end. */
function recordRun(statement: EmbeddedStatement, mode: PlanCacheMode, ms: number): void {
  if (!statement.trial) return;
  const { trial, chosen } = afterTrialRun(statement.trial, mode, ms);
  statement.trial = trial;
  statement.chosen = chosen;
}

/** The named statement `client` runs for `text`, if the server named it. */
export function embeddedStatementFor(client: PGlite, text: string): EmbeddedStatement | undefined {
  return statementsOf.get(client)?.get(text);
}

const batch = (...messages: Uint8Array[]) => Buffer.concat(messages);

/**
 * The session's plan_cache_mode: PostgreSQL has no per-statement choice, and the embedded engine is
 * one session. A statement run on its generic plan sets it to force_generic_plan and leaves it so
 * for the ones that follow on theirs (a page's statements come in a row); any other statement
 * through `query` sets it back first. A statement planned in the other mode still answers the
 * same rows: the setting decides only how fast.
 */
const PLAN_CACHE_MODES: Record<PlanCacheMode, Uint8Array> = {
  auto: protocol.serialize.query('set plan_cache_mode = auto'),
  generic: protocol.serialize.query('set plan_cache_mode = force_generic_plan'),
};
const sessionPlanning = new WeakMap<PGlite, PlanCacheMode>();

/** Sets the session's plan_cache_mode for `planning`, unless it is set so already. Call it exclusively. */
async function setSessionPlanning(client: PGlite, planning: PlanCacheMode): Promise<void> {
  if ((sessionPlanning.get(client) ?? 'auto') === planning) return;
  await client.execProtocolStream(PLAN_CACHE_MODES[planning], { syncToFs: false });
  sessionPlanning.set(client, planning);
}

/**
 * Has the session plan as PostgreSQL does by default before `client` runs a statement the server
 * did not name (PGlite's own `query`).
 */
export function planUnnamedStatements(client: PGlite): Promise<void> {
  if ((sessionPlanning.get(client) ?? 'auto') === 'auto') return Promise.resolve();
  return client._runExclusiveQuery(() => setSessionPlanning(client, 'auto'));
}

/**
 * Runs a named statement as PGlite's `query` runs a text: exclusively, with the same parameter
 * serialisers and result parsers, the files synced after it outside a transaction, and an error
 * that carries the query and its parameters.
 */
export function queryEmbeddedStatement<T>(
  client: PGlite,
  text: string,
  statement: EmbeddedStatement,
  params: unknown[],
  options: QueryOptions | undefined,
): Promise<Results<T>> {
  return client._runExclusiveQuery(async () => {
    try {
      if (!statement.described) {
        const messages = await client.execProtocolStream(
          batch(
            protocol.serialize.parse({ name: statement.name, text }),
            protocol.serialize.describe({ type: 'S', name: statement.name }),
            protocol.serialize.sync(),
          ),
          { syncToFs: false },
        );
        statement.described = {
          parameterTypes: parse.parseDescribeStatementResults(messages),
          rowDescription: messages.filter((message) => message.name === 'rowDescription'),
        };
      }
      const { parameterTypes, rowDescription } = statement.described;
      const values = params.map((param, index) => {
        if (param === null || param === undefined) return null;
        const type = parameterTypes[index];
        const serialize = (type === undefined ? undefined : (options?.serializers?.[type] ?? client.serializers[type])) as
          | ((value: unknown) => string)
          | undefined;
        // As PGlite's own query does: a value without a serialiser for its type is sent as its text.
        return serialize ? serialize(param) : (param as { toString(): string }).toString();
      });
      const mode = modeOf(statement);
      await setSessionPlanning(client, mode);
      // PGlite runs the statement before `execProtocolStream` returns its promise: timing the call,
      // not its promise, times the database alone. Awaited, the time would include whatever other
      // requests' work runs before this one resumes, many times the statement's under load.
      const started = performance.now();
      const running = client.execProtocolStream(
        batch(
          protocol.serialize.bind({ statement: statement.name, values }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ),
        { syncToFs: false },
      );
      recordRun(statement, mode, performance.now() - started);
      const messages = await running;
      if (!client.isInTransaction()) await client.syncToFs();
      return parse.parseResults([...rowDescription, ...messages], client.parsers, options)[0] as Results<T>;
    } catch (error) {
      if (error instanceof protocol.messages.DatabaseError) Object.assign(error, { query: text, params, queryOptions: options });
      throw error;
    }
  });
}
