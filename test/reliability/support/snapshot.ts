// What is stored, as a fingerprint per table, to show that requests changed nothing: one statement
// hashes every row of every application table (their JSON text, sorted), so a test can take one
// before and after each request.
//
// Left out, because every request changes them by design: the audit log (one row per request), the
// rate-limit counters, and api_keys.last_used_at. Idempotency keys are listed apart
// (`Snapshot.idempotency`): a refusal a handler made (404, 409) is stored for replay as the contract
// says, and tests account for each such row.
import { sql } from "drizzle-orm";
import type { Storage } from "../../../src/storage/index.ts";

const notData = new Set(["audit_log", "rate_limit_counters", "idempotency_keys"]);
const volatileColumns = ["last_used_at"];

export interface Snapshot {
  /** Table name → fingerprint of its rows. */
  readonly tables: Readonly<Record<string, string>>;
  /** Every stored Idempotency-Key → the status of its stored answer, or its state while it has none. */
  readonly idempotency: Readonly<Record<string, string>>;
}

/** Builds the snapshot statement once for the database's tables. */
export async function snapshotter(storage: Storage): Promise<{ take(): Promise<Snapshot>; tables: readonly string[] }> {
  const listed = await storage.db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const tables = listed.rows.map((row) => row.name).filter((name) => !notData.has(name));
  const strip = volatileColumns.map((column) => ` - '${column}'`).join("");
  const parts = tables.map(
    (table) =>
      `'${table}', (select md5(coalesce(string_agg(r, E'\\n' order by r), '')) || ':' || count(*) from (select (to_jsonb(t)${strip})::text as r from "${table}" t) s)`,
  );
  const statement = sql.raw(
    `select json_build_object(${parts.join(", ")}) as tables, ` +
      `(select coalesce(json_object_agg(key, coalesce(response_status::text, state)), '{}') from idempotency_keys) as idempotency`,
  );
  return {
    tables,
    async take() {
      const result = await storage.db.execute<{ tables: Record<string, string> | string; idempotency: Record<string, string> | string }>(statement);
      const row = result.rows[0]!;
      const parsed = (value: Record<string, string> | string) => (typeof value === "string" ? (JSON.parse(value) as Record<string, string>) : value);
      return { tables: parsed(row.tables), idempotency: parsed(row.idempotency) };
    },
  };
}

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  return Object.keys({ ...before.tables, ...after.tables }).filter((table) => before.tables[table] !== after.tables[table]);
}
