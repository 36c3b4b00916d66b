// What is stored, as a fingerprint per table, to show that requests changed nothing: the hash of
// every row of every application table (their JSON text, sorted), so a test can take one before
// and after each request. Hashing every row each time was the larger part of a hostile case's
// cost, so a first statement reads, per table, its row count and the newest transaction that wrote
// a row (the greatest xmin): a table whose two did not change has no row added, changed or removed
// (each such write leaves a row version stamped with a newer transaction, or changes the count),
// and keeps the hash it had; only the others are hashed again.
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
  const hash = (table: string) =>
    `'${table}', (select md5(coalesce(string_agg(r, E'\\n' order by r), '')) || ':' || count(*) from (select (to_jsonb(t)${strip})::text as r from "${table}" t) s)`;
  const lastWrite = (table: string) =>
    `'${table}', (select count(*) || ':' || coalesce(max(xmin::text::bigint), 0) from "${table}")`;
  const writes = sql.raw(
    `select json_build_object(${tables.map(lastWrite).join(", ")}) as tables, ` +
      `(select coalesce(json_object_agg(key, coalesce(response_status::text, state)), '{}') from idempotency_keys) as idempotency`,
  );
  type Fingerprints = Record<string, string> | string;
  const parsed = (value: Fingerprints) =>
    typeof value === "string" ? (JSON.parse(value) as Record<string, string>) : value;
  /** Table → its writes' fingerprint and its rows' hash when last hashed. */
  const known = new Map<string, { writes: string; hash: string }>();
  return {
    tables,
    async take() {
      const row = (await storage.db.execute<{ tables: Fingerprints; idempotency: Fingerprints }>(writes)).rows[0]!;
      const written = parsed(row.tables);
      const stale = tables.filter((table) => known.get(table)?.writes !== written[table]);
      if (stale.length > 0) {
        const hashed = (
          await storage.db.execute<{ tables: Fingerprints }>(
            sql.raw(`select json_build_object(${stale.map(hash).join(", ")}) as tables`),
          )
        ).rows[0]!;
        for (const [table, rows] of Object.entries(parsed(hashed.tables)))
          known.set(table, { writes: written[table]!, hash: rows });
      }
      return {
        tables: Object.fromEntries(tables.map((table) => [table, known.get(table)!.hash])),
        idempotency: parsed(row.idempotency),
      };
    },
  };
}

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  return Object.keys({ ...before.tables, ...after.tables }).filter(
    (table) => before.tables[table] !== after.tables[table],
  );
}
