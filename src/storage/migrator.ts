// Our migration runner, over drizzle-kit's files and drizzle's bookkeeping, on either driver.
//
// Why not drizzle's migrator: it runs every pending migration in one transaction, and PostgreSQL
// refuses `CREATE INDEX CONCURRENTLY` inside a transaction. An index built without CONCURRENTLY
// blocks every write to its table until it is built, which on a live table during a rolling deploy
// is an outage. So:
// - Files: `meta/_journal.json` lists the migrations in order (tag, `when`); each `<tag>.sql` is cut
//   into statements at `--> statement-breakpoint`, exactly as drizzle reads them.
// - Bookkeeping: drizzle's own table, `drizzle.__drizzle_migrations` (id, hash = SHA-256 of the
//   file's text, created_at = the journal's `when`), written as drizzle writes it, and a migration is
//   pending when its `when` is later than the newest recorded created_at (drizzle's rule). Databases
//   migrated by drizzle's migrator carry on here, and the other way round.
// - A migration runs in a transaction of its own together with its bookkeeping row: all of it or
//   none. Each transaction waits at most LOCK_TIMEOUT_MS for the locks it needs (an ALTER TABLE queued
//   behind a long transaction would otherwise stall every query of that table behind it) and is
//   retried a few times when that wait runs out.
// - A migration made of CONCURRENTLY statements (the migration rules in README require such a
//   migration to hold nothing else) runs each statement on its own, outside any transaction, and
//   records itself afterwards. It can be interrupted half way (a crash, a lost connection), so each
//   statement is made safe to run again: an index that exists and is valid is not built again; one
//   left invalid by an interrupted build is dropped and built again; an index to drop that is gone
//   already is skipped.
// - The whole run holds an advisory lock, so replicas starting together apply each migration once
//   and the others find nothing left to do. The lock is taken by polling pg_try_advisory_lock, not
//   by waiting in pg_advisory_lock: a session blocked inside a statement holds a snapshot, and
//   CREATE INDEX CONCURRENTLY waits for every older snapshot to end — the migrating replica would
//   wait for the replicas waiting for it, and PostgreSQL ends that by aborting one as a deadlock
//   (tried: it does).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { migrationsFolder } from "./index.ts";

/** One statement-by-statement connection to the database (never a pool: the lock is per session). */
export interface MigrationSession {
  /** One statement without parameters, outside any transaction. */
  execute(statement: string): Promise<void>;
  query<Row extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction of this session: committed when it resolves, rolled back when it throws. */
  transaction(work: (tx: Omit<MigrationSession, "transaction">) => Promise<void>): Promise<void>;
}

export interface Migration {
  readonly tag: string;
  /** The journal's `when`: drizzle's order and bookkeeping key. */
  readonly when: number;
  /** SHA-256 of the file's text, as drizzle records it. */
  readonly hash: string;
  readonly statements: readonly string[];
  /** Its statements are CONCURRENTLY statements, run outside transactions. */
  readonly concurrent: boolean;
}

export interface MigrationReport {
  /** What this run applied, in order. */
  readonly applied: ReadonlyArray<{ readonly tag: string; readonly ms: number }>;
  /** The last migration this release knows. */
  readonly latest: string;
}

/** The database's schema is not what this release needs, and this process was not asked to migrate it. */
export class SchemaNotCurrentError extends Error {
  /** Tags of the migrations not applied yet (all of them for an empty database). */
  readonly pending: readonly string[];
  readonly empty: boolean;
  constructor(pending: readonly string[], empty: boolean, message?: string) {
    super(
      message ??
        (empty
          ? "the database has no schema yet (no migration applied); run `pbs migrate` to create it"
          : `the database schema is behind this release: ${pending.length} migration${pending.length === 1 ? "" : "s"} not applied (${pending.join(", ")}); run \`pbs migrate\``),
    );
    this.name = "SchemaNotCurrentError";
    this.pending = pending;
    this.empty = empty;
  }
}

const BREAKPOINT = "--> statement-breakpoint";
const BOOKKEEPING = `"drizzle"."__drizzle_migrations"`;
// Any constant unique to this application: replicas starting together take turns migrating.
const MIGRATION_LOCK_ID = 0x7062_7301;
const LOCK_POLL_MS = 500;
const LOCK_TIMEOUT_MS = 10_000;
const LOCK_TIMEOUT_ATTEMPTS = 5;

/** Reads the journal and every migration file it names (drizzle's layout), in order. */
export function readMigrations(folder: string = migrationsFolder): Migration[] {
  const journal = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8")) as { entries: { tag: string; when: number }[] };
  return journal.entries.map(({ tag, when }) => {
    const text = readFileSync(join(folder, `${tag}.sql`), "utf8");
    const statements = text.split(BREAKPOINT).filter((statement) => stripComments(statement).trim() !== "");
    const concurrent = statements.filter(isConcurrent).length;
    if (concurrent > 0 && concurrent < statements.length) {
      throw new Error(`migration ${tag} mixes CONCURRENTLY statements with others; put them in a migration of their own`);
    }
    return { tag, when, hash: createHash("sha256").update(text).digest("hex"), statements, concurrent: concurrent > 0 };
  });
}

/** The migrations not applied to the database yet; `empty` when none ever was. Reads only. */
export async function pendingMigrations(session: MigrationSession, migrations: readonly Migration[]): Promise<{ pending: Migration[]; empty: boolean }> {
  const [table] = await session.query<{ present: boolean }>(`select to_regclass('${BOOKKEEPING}') is not null as present`);
  const last = table!.present
    ? (await session.query<{ created_at: string | number }>(`select created_at from ${BOOKKEEPING} order by created_at desc limit 1`))[0]
    : undefined;
  if (last === undefined) return { pending: [...migrations], empty: true };
  return { pending: migrations.filter((migration) => Number(last.created_at) < migration.when), empty: false };
}

/** Throws SchemaNotCurrentError unless every migration of this release is applied. */
export async function requireCurrentSchema(session: MigrationSession, migrations: readonly Migration[]): Promise<void> {
  const { pending, empty } = await pendingMigrations(session, migrations);
  if (pending.length > 0) {
    throw new SchemaNotCurrentError(
      pending.map((migration) => migration.tag),
      empty,
    );
  }
}

export interface ApplyOptions {
  /** Told when the run waits for another process's migrations, and as each migration begins. */
  readonly progress?: (message: string) => void;
  /** How long a migration's transaction waits for a lock before it is retried (default 10 s). */
  readonly lockTimeoutMs?: number;
}

/** Applies the pending migrations under the advisory lock; answers what it applied. */
export async function applyMigrations(session: MigrationSession, migrations: readonly Migration[], options: ApplyOptions = {}): Promise<MigrationReport> {
  const latest = migrations.at(-1)?.tag ?? "";
  await takeLock(session, options.progress);
  try {
    const { pending, empty } = await pendingMigrations(session, migrations);
    // Nothing to do runs no DDL at all, so a role without the right to change the schema can run it.
    if (empty && pending.length > 0) {
      await session.execute(`create schema if not exists "drizzle"`);
      await session.execute(`create table if not exists ${BOOKKEEPING} (id serial primary key, hash text not null, created_at bigint)`);
    }
    const applied: { tag: string; ms: number }[] = [];
    for (const migration of pending) {
      options.progress?.(`applying ${migration.tag}`);
      const started = performance.now();
      if (migration.concurrent) await applyConcurrently(session, migration);
      else await applyInTransaction(session, migration, options.lockTimeoutMs ?? LOCK_TIMEOUT_MS);
      applied.push({ tag: migration.tag, ms: Math.round(performance.now() - started) });
    }
    return { applied, latest };
  } finally {
    await session.query(`select pg_advisory_unlock($1)`, [MIGRATION_LOCK_ID]);
  }
}

async function takeLock(session: MigrationSession, progress: ApplyOptions["progress"]): Promise<void> {
  for (let waited = false; ; waited = true) {
    const [row] = await session.query<{ locked: boolean }>(`select pg_try_advisory_lock($1) as locked`, [MIGRATION_LOCK_ID]);
    if (row!.locked) return;
    if (!waited) progress?.("waiting for another process to finish its migrations");
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

async function applyInTransaction(session: MigrationSession, migration: Migration, lockTimeoutMs: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await session.transaction(async (tx) => {
        await tx.execute(`set local lock_timeout = ${Math.round(lockTimeoutMs)}`);
        for (const statement of migration.statements) await tx.execute(statement);
        await record(tx, migration);
      });
      return;
    } catch (error) {
      if (sqlState(error) !== "55P03" || attempt >= LOCK_TIMEOUT_ATTEMPTS) throw withTag(error, migration);
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
}

async function applyConcurrently(session: MigrationSession, migration: Migration): Promise<void> {
  try {
    for (const statement of migration.statements) {
      const created = CREATE_INDEX.exec(stripComments(statement).trim());
      const dropped = DROP_INDEX.exec(stripComments(statement).trim());
      const name = created?.[1] ?? dropped?.[1];
      const state = name === undefined ? undefined : await indexState(session, name);
      if (created && state === "valid") continue; // built by an earlier, interrupted run
      if (created && state === "invalid") await session.execute(`drop index concurrently ${name}`);
      if (dropped && state === "absent") continue;
      await session.execute(statement);
    }
    await record(session, migration);
  } catch (error) {
    throw withTag(error, migration);
  }
}

async function record(session: Omit<MigrationSession, "transaction">, migration: Migration): Promise<void> {
  await session.query(`insert into ${BOOKKEEPING} ("hash", "created_at") values ($1, $2)`, [migration.hash, migration.when]);
}

/** `absent`, or whether the index (a name as written in SQL, quoted or not) is valid. */
async function indexState(session: MigrationSession, name: string): Promise<"absent" | "valid" | "invalid"> {
  const [row] = await session.query<{ valid: boolean }>(`select indisvalid as valid from pg_index where indexrelid = to_regclass($1)`, [name]);
  return row === undefined ? "absent" : row.valid ? "valid" : "invalid";
}

const IDENTIFIER = String.raw`((?:"[^"]+"|[\w$]+)(?:\.(?:"[^"]+"|[\w$]+))?)`;
const CREATE_INDEX = new RegExp(String.raw`^create\s+(?:unique\s+)?index\s+concurrently\s+(?:if\s+not\s+exists\s+)?${IDENTIFIER}`, "i");
const DROP_INDEX = new RegExp(String.raw`^drop\s+index\s+concurrently\s+(?:if\s+exists\s+)?${IDENTIFIER}`, "i");
const CONCURRENT_STATEMENT = /^(?:create\s+(?:unique\s+)?index|drop\s+index|reindex\s+\w+|refresh\s+materialized\s+view)\s+concurrently\b/i;

/** A statement PostgreSQL refuses to run inside a transaction block because of CONCURRENTLY. */
export function isConcurrent(statement: string): boolean {
  return CONCURRENT_STATEMENT.test(stripComments(statement).trim());
}

/** The statement without `--` and `/* *\/` comments (string literals and dollar quotes kept as they are). */
export function stripComments(statement: string): string {
  return statement.replace(/('(?:[^']|'')*')|(\$[\w]*\$)[\s\S]*?\2|--[^\n]*|\/\*[\s\S]*?\*\//g, (match, literal: string | undefined, dollar: string | undefined) =>
    literal !== undefined || dollar !== undefined ? match : " ",
  );
}

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

function withTag(error: unknown, migration: Migration): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`migration ${migration.tag} failed: ${message}`, { cause: error });
}
