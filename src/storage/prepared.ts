// Hot queries built once: a query prepared here is compiled to SQL on its first use per database,
// and on PostgreSQL runs as a named server-side statement (parsed and planned once per connection).
// Per request only the parameters change, instead of drizzle walking its query objects again.
//
// A transaction reuses the query compiled for its database: only the connection it runs on differs.
// drizzle (0.45) has no public way to say so, so this module reaches into two of its internals, both
// checked by prepared.test.ts on either driver: a database's or transaction's `dialect` (one per
// database, shared by its transactions) and `session.client` (the pool, or the transaction's
// connection), and a prepared query's `client`, which its `execute` reads on every call.
import { createHash } from "node:crypto";
import { Param, sql, type Column, type SQL } from "drizzle-orm";
import type { PgDatabase, PgDialect, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";

interface Prepared<Params, Result> {
  execute(params: Params): Promise<Result>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDatabase = PgDatabase<PgQueryResultHKT, any, any>;

interface DrizzleInternals {
  readonly dialect: PgDialect;
  readonly session: {
    readonly client: unknown;
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      isResponseInArrayMode: boolean,
    ): Prepared<never, unknown>;
  };
}
const internalsOf = (db: AnyDatabase) => db as unknown as DrizzleInternals;

/**
 * `build` makes the query on a database, with `placeholder(name)` for what varies, ending in
 * `.prepare(statementName)`. Returns the query for a database or any of its transactions (on the
 * transaction's connection).
 */
export function prepared<Db extends AnyDatabase, Params extends Record<string, unknown>, Result>(
  build: (db: Db) => Prepared<Params, Result>,
): (db: Db) => Prepared<Params, Result> {
  const byDatabase = new WeakMap<PgDialect, Prepared<Params, Result> & { client?: unknown }>();
  return (db) => {
    const { dialect, session } = internalsOf(db);
    let query = byDatabase.get(dialect);
    if (!query) {
      query = build(db);
      byDatabase.set(dialect, query);
    }
    if (query.client === session.client) return query;
    if (!("client" in query)) throw new Error("drizzle's prepared query has no client: see src/storage/prepared.ts");
    return Object.create(query, { client: { value: session.client } }) as typeof query;
  };
}

/**
 * A prepared statement written in SQL (`sql` with `placeholder(name)` and embedded query builders),
 * for what the builders cannot say (a CTE, an INSERT … SELECT). Resolves to its rows as the driver
 * returns them (`{ rows }`), like `db.execute`.
 */
export function preparedSql<Db extends AnyDatabase, Params extends Record<string, unknown>>(
  name: string,
  build: (db: Db) => SQL,
): (db: Db) => Prepared<Params, { rows: Record<string, unknown>[] }> {
  return prepared((db: Db) => {
    const { dialect, session } = internalsOf(db);
    return session.prepareQuery(dialect.sqlToQuery(build(db)), undefined, name, false) as Prepared<
      Params,
      { rows: Record<string, unknown>[] }
    >;
  });
}

export const placeholder = sql.placeholder;

/**
 * A placeholder whose value is encoded as `column` encodes it (jsonb as JSON, a timestamp's Date as
 * ISO text), where drizzle's types take SQL but not a placeholder: an UPDATE's `set`, a comparison.
 * null stays SQL NULL (a column's encoder would make it JSON `null`, or fail on a timestamp).
 */
export const placeholderFor = (name: string, column: Column): SQL =>
  sql`${new Param(placeholder(name), { mapToDriverValue: (value: unknown) => (value === null ? null : column.mapToDriverValue(value)) })}`;

interface TextClient {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * SQL text written by a library (pg-boss) on `db`'s connection, or its transaction's. On PostgreSQL it
 * runs as a named statement, parsed and planned once per connection instead of on every call
 * (pg-boss's job insert, parsed anew each time, cost PostgreSQL more than any other statement of a
 * create); its name is the text's hash, so one text is one statement however often it comes. On
 * PGlite it runs as it is. Rows come back as the driver parses them.
 */
export function executeText(db: AnyDatabase, text: string, values: readonly unknown[]): Promise<{ rows: unknown[] }> {
  const client = internalsOf(db).session.client as TextClient | pg.Pool | pg.Client;
  if (client instanceof pg.Pool || client instanceof pg.Client)
    return client.query({ name: statementName(text), text, values: [...values] });
  return client.query(text, [...values]);
}

/** A library sends a handful of texts, each many times: each is hashed once. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `text_${createHash("sha256").update(text).digest("base64url").slice(0, 22)}`;
    statementNames.set(text, name);
  }
  return name;
}
