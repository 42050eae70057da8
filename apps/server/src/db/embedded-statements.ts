import { type PGlite, parse, protocol, type QueryOptions, type Results } from '@electric-sql/pglite';

/**
 * Named statements on the embedded engine. PGlite's `query` runs every statement through six
 * protocol calls into the database (parse, describe, bind, describe, execute, sync), and the parse
 * has PostgreSQL parse and plan the text again each time. A statement the server names
 * (`db/prepared.ts`, the sign-in's) is parsed once here instead, under a name of its own, and then
 * runs as one call of bind, execute and sync, with the result's description kept from the parse:
 * what node-postgres does with a named statement on PostgreSQL (decision 0024).
 */

type BackendMessage = Parameters<typeof parse.parseResults>[0][number];

/**
 * How PostgreSQL plans a named statement's runs: as it plans any named statement (`auto`: a custom
 * plan for each of the first five runs, then the generic plan when its estimate is no worse than
 * theirs), or always with the generic plan, planned once (`generic`). A statement whose estimates
 * keep PostgreSQL planning it anew on every run, though the generic plan runs as fast, asks for
 * `generic`: planning in the embedded engine costs as much as running a small query.
 */
export type StatementPlanning = 'auto' | 'generic';

type EmbeddedStatement = {
  name: string;
  planning: StatementPlanning;
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
  if (!statements.has(text)) statements.set(text, { name: `named_${statements.size + 1}`, planning });
}

/** The named statement `client` runs for `text`, if the server named it. */
export function embeddedStatementFor(client: PGlite, text: string): EmbeddedStatement | undefined {
  return statementsOf.get(client)?.get(text);
}

const batch = (...messages: Uint8Array[]) => Buffer.concat(messages);

/**
 * The session's plan_cache_mode: PostgreSQL has no per-statement choice, and the embedded engine is
 * one session. A `generic` statement sets it to force_generic_plan and leaves it so for the
 * generic statements that follow (a page's statements come in a row); any other statement through
 * `query` sets it back first. A statement planned in the other mode still answers the same rows:
 * the setting decides only how fast.
 */
const PLAN_CACHE_MODES: Record<StatementPlanning, Uint8Array> = {
  auto: protocol.serialize.query('set plan_cache_mode = auto'),
  generic: protocol.serialize.query('set plan_cache_mode = force_generic_plan'),
};
const sessionPlanning = new WeakMap<PGlite, StatementPlanning>();

/** Sets the session's plan_cache_mode for `planning`, unless it is set so already. Call it exclusively. */
async function setSessionPlanning(client: PGlite, planning: StatementPlanning): Promise<void> {
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
      await setSessionPlanning(client, statement.planning);
      const messages = await client.execProtocolStream(
        batch(
          protocol.serialize.bind({ statement: statement.name, values }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ),
        { syncToFs: false },
      );
      if (!client.isInTransaction()) await client.syncToFs();
      return parse.parseResults([...rowDescription, ...messages], client.parsers, options)[0] as Results<T>;
    } catch (error) {
      if (error instanceof protocol.messages.DatabaseError) Object.assign(error, { query: text, params, queryOptions: options });
      throw error;
    }
  });
}
