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

type EmbeddedStatement = {
  name: string;
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
 * Has `client` run the SQL text `text` as a named statement from now on. The name is the client's
 * own (one per text), so two texts can never share one.
 */
export function nameEmbeddedStatement(client: PGlite, text: string): void {
  const statements = statementsFor(client);
  if (!statements.has(text)) statements.set(text, { name: `named_${statements.size + 1}` });
}

/** The named statement `client` runs for `text`, if the server named it. */
export function embeddedStatementFor(client: PGlite, text: string): EmbeddedStatement | undefined {
  return statementsOf.get(client)?.get(text);
}

const batch = (...messages: Uint8Array[]) => Buffer.concat(messages);

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
