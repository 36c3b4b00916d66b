// Hot queries built once: a query prepared here is compiled to SQL on its first use per database,
// and on PostgreSQL runs as a named server-side statement (parsed and planned once per connection).
// Per request only the parameters change, instead of drizzle walking its query objects again.
import { sql } from "drizzle-orm";
import type { Database, Queryable } from "./index.ts";

interface Prepared<Params, Result> {
  execute(params: Params): Promise<Result>;
}

/**
 * `build` makes the query on a database, with `sql.placeholder(name)` for what varies, ending in
 * `.prepare(statementName)`. Returns the query for a database or transaction (a transaction gets its
 * own, so its statements run on its connection).
 */
export function prepared<Params extends Record<string, unknown>, Result>(
  build: (db: Database) => Prepared<Params, Result>,
): (db: Queryable) => Prepared<Params, Result> {
  const byDatabase = new WeakMap<Queryable, Prepared<Params, Result>>();
  return (db) => {
    let query = byDatabase.get(db);
    if (!query) {
      query = build(db as Database);
      byDatabase.set(db, query);
    }
    return query;
  };
}

export const placeholder = sql.placeholder;
