// The migration runner (src/storage/migrator.ts) on both drivers: drizzle's bookkeeping kept as
// drizzle keeps it, CONCURRENTLY statements outside transactions and safe to run again, the schema
// check every process but `pbs migrate` relies on, and (PostgreSQL) replicas migrating at once.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as drizzleMigratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as drizzleMigratePglite } from "drizzle-orm/pglite/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrationsFolder } from "../src/storage/index.ts";
import {
  applyMigrations,
  pendingMigrations,
  readMigrations,
  requireCurrentSchema,
  SchemaNotCurrentError,
  type MigrationSession,
} from "../src/storage/migrator.ts";
import { pgliteSession } from "../src/storage/pglite.ts";
import { withMigrationSession } from "../src/storage/postgres.ts";
import { forEachDriver, postgresDriver, type ProcessDatabase } from "./support/database.ts";

/** The last migration of the releases that migrated with drizzle's own migrator. */
const LAST_DRIZZLE_MIGRATION = "0006_rate_limit_counters";

/** An empty database and sessions on it, whatever the driver. */
interface EmptyDatabase {
  /** Runs `work` on a session of its own (a connection of its own on PostgreSQL). */
  session<T>(work: (session: MigrationSession) => Promise<T>): Promise<T>;
  /** drizzle's own migrator over `folder`, as earlier releases ran it. */
  drizzleMigrate(folder: string): Promise<void>;
  query<Row extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

/** One in-memory PGlite for the file (initdb takes seconds), emptied after each test. */
let pglite: Promise<PGlite> | undefined;
afterAll(async () => {
  await (await pglite)?.close();
});

async function emptyDatabase(driver: "pglite" | "postgres"): Promise<EmptyDatabase> {
  if (driver === "pglite") {
    const client = await (pglite ??= PGlite.create());
    const session = pgliteSession(client);
    return {
      session: (work) => work(session),
      drizzleMigrate: (folder) => drizzleMigratePglite(drizzlePglite({ client }), { migrationsFolder: folder }),
      query: session.query,
      close: () =>
        client
          .exec(
            `drop schema if exists drizzle cascade; drop schema public cascade; create schema public; select pg_advisory_unlock_all()`,
          )
          .then(() => {}),
    };
  }
  const database: ProcessDatabase = await postgresDriver.forProcess({ migrated: false });
  const pools: pg.Pool[] = [];
  const pool = () => {
    const created = new pg.Pool({ connectionString: database.databaseUrl, max: 2 });
    pools.push(created);
    return created;
  };
  const main = pool();
  return {
    session: (work) => withMigrationSession(pool(), work),
    drizzleMigrate: (folder) => drizzleMigratePg(drizzlePg({ client: main }), { migrationsFolder: folder }),
    query: async <Row extends Record<string, unknown>>(text: string, params?: unknown[]) =>
      (await main.query<Row>(text, params)).rows,
    async close() {
      await Promise.all(pools.map((each) => each.end()));
      await database.dispose();
    },
  };
}

/** A migrations folder of the test's own: `sql` files with a journal, as drizzle-kit lays them out. */
async function migrationsOf(...files: Array<{ tag: string; sql: string }>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "pbs-migrations-"));
  await mkdir(join(folder, "meta"));
  const entries = files.map(({ tag }, idx) => ({
    idx,
    version: "7",
    when: 1_800_000_000_000 + idx,
    tag,
    breakpoints: true,
  }));
  await writeFile(
    join(folder, "meta", "_journal.json"),
    JSON.stringify({ version: "7", dialect: "postgresql", entries }),
  );
  for (const { tag, sql } of files) await writeFile(join(folder, `${tag}.sql`), sql);
  return folder;
}

const bookkeeping = (db: EmptyDatabase) =>
  db.query<{ hash: string; created_at: string }>(
    `select hash, created_at::text from drizzle.__drizzle_migrations order by id`,
  );

forEachDriver("migration runner", (driver) => {
  let db: EmptyDatabase;
  const scratch: string[] = [];
  beforeEach(async () => {
    db = await emptyDatabase(driver.name);
  });
  afterEach(async () => {
    await db?.close();
    await Promise.all(scratch.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it("applies every migration to an empty database and records each as drizzle's migrator does", async () => {
    const report = await db.session((session) => applyMigrations(session, readMigrations()));
    const drizzles = readMigrationFiles({ migrationsFolder });
    const journal = JSON.parse(await readFile(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
      entries: { tag: string }[];
    };
    expect(report.applied.map((migration) => migration.tag)).toEqual(journal.entries.map((entry) => entry.tag));
    expect(report.latest).toBe(journal.entries.at(-1)!.tag);
    expect(await bookkeeping(db)).toEqual(
      drizzles.map((migration) => ({ hash: migration.hash, created_at: String(migration.folderMillis) })),
    );

    const again = await db.session((session) => applyMigrations(session, readMigrations()));
    expect(again.applied).toEqual([]);
    expect(await bookkeeping(db)).toHaveLength(drizzles.length);
  });

  it("carries on from a database that drizzle's migrator migrated", async () => {
    const all = readMigrations();
    // What the last release before this runner left: its migrations, applied by drizzle (whose
    // migrator cannot apply the CONCURRENTLY migrations that came after).
    const drizzled = all.findIndex((migration) => migration.tag === LAST_DRIZZLE_MIGRATION) + 1;
    const earlier = await mkdtemp(join(tmpdir(), "pbs-migrations-"));
    scratch.push(earlier);
    await cp(migrationsFolder, earlier, { recursive: true });
    const journalPath = join(earlier, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: unknown[] };
    await writeFile(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, drizzled) }));
    await db.drizzleMigrate(earlier);

    await expect(db.session((session) => requireCurrentSchema(session, all))).rejects.toThrow(
      new SchemaNotCurrentError(
        all.slice(drizzled).map((migration) => migration.tag),
        false,
      ),
    );
    const report = await db.session((session) => applyMigrations(session, all));
    expect(report.applied.map((migration) => migration.tag)).toEqual(
      all.slice(drizzled).map((migration) => migration.tag),
    );
    expect((await bookkeeping(db)).map((row) => row.hash)).toEqual(all.map((migration) => migration.hash));
    await db.session((session) => requireCurrentSchema(session, all));
  });

  it("requires a current schema without changing anything: empty, behind, current and ahead", async () => {
    const all = readMigrations();
    const empty = await db.session((session) => requireCurrentSchema(session, all)).catch((error: unknown) => error);
    expect(empty).toBeInstanceOf(SchemaNotCurrentError);
    expect((empty as SchemaNotCurrentError).message).toBe(
      "the database has no schema yet (no migration applied); run `pbs migrate` to create it",
    );
    // The check only reads: it did not even create drizzle's table.
    expect(await db.query(`select to_regclass('drizzle.__drizzle_migrations') as present`)).toEqual([
      { present: null },
    ]);

    await db.session((session) => applyMigrations(session, all.slice(0, -1)));
    await expect(db.session((session) => requireCurrentSchema(session, all))).rejects.toThrow(
      `the database schema is behind this release: 1 migration not applied (${all.at(-1)!.tag}); run \`pbs migrate\``,
    );
    await db.session((session) => applyMigrations(session, all));
    await db.session((session) => requireCurrentSchema(session, all));

    // A newer release migrated it (a rolling deploy): this release still runs, and applies nothing.
    await db.query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer', $1)`, [
      all.at(-1)!.when + 1000,
    ]);
    await db.session((session) => requireCurrentSchema(session, all));
    expect(await db.session((session) => pendingMigrations(session, all))).toEqual({ pending: [], empty: false });
  });

  it("runs CONCURRENTLY statements outside any transaction, and runs such a migration again safely after an interruption", async () => {
    const folder = await migrationsOf(
      {
        tag: "0000_table",
        sql: `CREATE TABLE "things" ("a" integer, "b" integer);--> statement-breakpoint\nINSERT INTO "things" SELECT g, g FROM generate_series(1, 1000) g;`,
      },
      {
        tag: "0001_indexes",
        sql: `CREATE INDEX CONCURRENTLY "things_a_idx" ON "things" USING btree ("a");--> statement-breakpoint\n-- a comment first\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS things_b_idx ON things (b);`,
      },
    );
    scratch.push(folder);
    const migrations = readMigrations(folder);
    expect(migrations.map((migration) => migration.concurrent)).toEqual([false, true]);
    await db.session((session) => applyMigrations(session, migrations));
    const indexes = () =>
      db.query<{ name: string; valid: boolean }>(
        `select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = 'things'::regclass order by 1`,
      );
    expect(await indexes()).toEqual([
      { name: "things_a_idx", valid: true },
      { name: "things_b_idx", valid: true },
    ]);

    // An interrupted run: the first index left invalid (as a failed concurrent build leaves it), the
    // second built, the migration not recorded. Running it again mends the first and keeps the second.
    await db.query(`update pg_index set indisvalid = false where indexrelid = 'things_a_idx'::regclass`);
    await db.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrations[1]!.when]);
    const report = await db.session((session) => applyMigrations(session, migrations));
    expect(report.applied.map((migration) => migration.tag)).toEqual(["0001_indexes"]);
    expect(await indexes()).toEqual([
      { name: "things_a_idx", valid: true },
      { name: "things_b_idx", valid: true },
    ]);
    expect(await bookkeeping(db)).toHaveLength(2);
  });

  it("refuses a migration that mixes CONCURRENTLY statements with others", async () => {
    const folder = await migrationsOf({
      tag: "0000_mixed",
      sql: `CREATE TABLE "things" ("a" integer);--> statement-breakpoint\nCREATE INDEX CONCURRENTLY "things_a_idx" ON "things" ("a");`,
    });
    scratch.push(folder);
    expect(() => readMigrations(folder)).toThrow(
      "migration 0000_mixed mixes CONCURRENTLY statements with others; put them in a migration of their own",
    );
  });

  it("applies a migration all or nothing, naming it when it fails", async () => {
    const folder = await migrationsOf(
      { tag: "0000_ok", sql: `CREATE TABLE "kept" ("a" integer);` },
      {
        tag: "0001_broken",
        sql: `CREATE TABLE "half" ("a" integer);--> statement-breakpoint\nALTER TABLE "missing" ADD COLUMN "b" integer;`,
      },
    );
    scratch.push(folder);
    await expect(db.session((session) => applyMigrations(session, readMigrations(folder)))).rejects.toThrow(
      /^migration 0001_broken failed: relation "missing" does not exist/,
    );
    expect(await db.query(`select to_regclass('kept')::text as kept, to_regclass('half')::text as half`)).toEqual([
      { kept: "kept", half: null },
    ]);
    expect(await bookkeeping(db)).toHaveLength(1);
  });
});

const postgresName = `migration runner with other sessions [postgres]${postgresDriver.skipReason ? ` (skipped: ${postgresDriver.skipReason})` : ""}`;
describe.skipIf(postgresDriver.skipReason !== undefined)(postgresName, () => {
  let db: EmptyDatabase;
  beforeEach(async () => {
    db = await emptyDatabase("postgres");
  });
  afterEach(() => db?.close());

  it("lets replicas starting together apply each migration once, while a CONCURRENTLY index is built", async () => {
    const migrations = readMigrations();
    expect(migrations.some((migration) => migration.concurrent)).toBe(true);
    // Four sessions at once: one migrates, the others poll the lock (a session blocked in
    // pg_advisory_lock would hold a snapshot that CREATE INDEX CONCURRENTLY waits for: a deadlock).
    const reports = await Promise.all(
      [1, 2, 3, 4].map(() => db.session((session) => applyMigrations(session, migrations))),
    );
    const applied = reports.flatMap((report) => report.applied.map((migration) => migration.tag));
    expect(applied.sort()).toEqual(migrations.map((migration) => migration.tag).sort());
    expect(reports.filter((report) => report.applied.length > 0)).toHaveLength(1);
    expect(await bookkeeping(db)).toHaveLength(migrations.length);
  });

  it("waits a bounded time for a table lock and tries the migration again", async () => {
    const folder = await migrationsOf(
      { tag: "0000_table", sql: `CREATE TABLE "busy" ("a" integer);` },
      { tag: "0001_column", sql: `ALTER TABLE "busy" ADD COLUMN "b" integer;` },
    );
    try {
      const migrations = readMigrations(folder);
      await db.session((session) => applyMigrations(session, migrations.slice(0, 1)));
      // Another session holds the table for a while (a long transaction of the running release).
      const done = db.session(async (other) => {
        await other.transaction(async (tx) => {
          await tx.execute(`lock table "busy" in access share mode`);
          await new Promise((resolve) => setTimeout(resolve, 700));
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const progress: string[] = [];
      const report = await db.session((session) =>
        applyMigrations(session, migrations, { lockTimeoutMs: 200, progress: (message) => progress.push(message) }),
      );
      await done;
      expect(report.applied.map((migration) => migration.tag)).toEqual(["0001_column"]);
      expect(progress).toEqual(["applying 0001_column"]);
      expect(
        await db.query(`select count(*)::int as columns from information_schema.columns where table_name = 'busy'`),
      ).toEqual([{ columns: 2 }]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
