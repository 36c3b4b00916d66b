// What both drivers give and the rest of the code sees: the database's types and the Storage
// interface, and the part of it both build alike. Below index.ts (which opens a driver) and the
// drivers (which implement it), so that neither imports the other back.
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Pool } from "pg";
import type * as schema from "./schema.ts";
import type { ChangeFeed } from "./notifications.ts";
import type { ApplyOptions, MigrationReport } from "./migrator.ts";

/**
 * What `db.execute(sql…)` resolves to on either driver: both node-postgres' QueryResult and PGlite's
 * Results carry the rows as `rows` (and the count of changed rows under different names, so not here).
 */
export interface QueryResultHKT extends PgQueryResultHKT {
  type: QueryRows<this["row"]>;
}
type QueryRows<Row> = { rows: (Row extends Record<string, unknown> ? Row : Record<string, unknown>)[] };

/** Either driver (PGlite or node-postgres), or a transaction of either, typed by any schema or none. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPgDatabase = PgDatabase<PgQueryResultHKT, any, any>;

/** The database as domain code sees it, on either driver. */
export type Database = PgDatabase<QueryResultHKT, typeof schema>;

/** A transaction of `Database`, for functions that must run inside `db.transaction(...)`. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** What a query function accepts: the database or a transaction of it. */
export type Queryable = Database | Transaction;

/**
 * Runs an operation's last write in a transaction and answers what the write returned. The plain
 * one is `inTransaction(db)`; a caller may give one that does more in the same transaction before
 * it commits (the request pipeline stores an idempotent request's answer there).
 */
export type Commit<T> = (write: (tx: Transaction) => Promise<T>) => Promise<T>;

/** The plain Commit: the write alone, in a transaction of its own. */
export function inTransaction<T>(db: Database): Commit<T> {
  return (write) => db.transaction(write);
}

interface StorageBase {
  readonly db: Database;
  /** Changes to credentials, announced by the database (see notifications.ts). */
  readonly changes: ChangeFeed;
  /** Resolves when the database answers a trivial query; for readiness probes. */
  ping(): Promise<void>;
  /** Applies this release's pending migrations (under the migration lock); `pbs migrate`. */
  migrate(options?: ApplyOptions): Promise<MigrationReport>;
  /** Closes the connections (and releases the data directory). Safe to call twice. */
  close(): Promise<void>;
}

/** What a driver's connection (PGlite, or node-postgres' pool) does for its StorageBase. */
export interface DriverConnection {
  query(text: string): Promise<unknown>;
  migrate(options?: ApplyOptions): Promise<MigrationReport>;
  /** Closes the connection, once the change feed (which may use it) is closed. */
  end(): Promise<void>;
}

/** The part of a Storage that both drivers make alike over their connection. */
export function storageBase(db: Database, changes: ChangeFeed, connection: DriverConnection): StorageBase {
  let closed: Promise<void> | undefined;
  return {
    db,
    changes,
    async ping() {
      await connection.query("select 1");
    },
    migrate: (options) => connection.migrate(options),
    close() {
      closed ??= changes.close().then(() => connection.end());
      return closed;
    },
  };
}

export interface PgliteStorage extends StorageBase {
  readonly driver: "pglite";
  readonly client: PGlite;
  /** The data directory this process owns, or undefined for an in-memory database. */
  readonly dataDir: string | undefined;
}

export interface PostgresStorage extends StorageBase {
  readonly driver: "postgres";
  /** The pool behind `db`, for libraries that want their own connection (e.g. a rate-limit store). */
  readonly pool: Pool;
}

export type Storage = PgliteStorage | PostgresStorage;
export type StorageDriver = Storage["driver"];

/**
 * What opening storage does about the schema:
 * - "apply": applies the pending migrations (the server at start, unless MIGRATE_ON_START=false);
 * - "require": applies nothing, and throws SchemaNotCurrentError (migrator.ts) unless every
 *   migration of this release is applied (every `pbs` command but `migrate`; the server with
 *   MIGRATE_ON_START=false). A database ahead of this release (a newer one migrated it during a
 *   rolling deploy) is fine: migrations are expand-then-contract (docs/deployment.md, "Migrations").
 * - "none": neither (`pbs migrate`, which then calls `storage.migrate()` to report what it applied).
 */
export type MigrationPolicy = "apply" | "require" | "none";
