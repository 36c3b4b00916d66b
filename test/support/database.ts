// Fresh, migrated databases for tests, on both storage drivers.
//
// PGlite: creating a cluster (initdb) and migrating it takes seconds, so it is done once per machine
// and migration set: the migrated cluster is the server's own template (src/storage/pglite-template.ts,
// in node_modules/.cache). Each test then loads that tarball (~0.3 s) into
// memory, or into a temp data directory when another process (server, pbs) must open it.
//
// PostgreSQL: runs only when TEST_DATABASE_URL names a server (its user must be allowed to create
// databases). Every database handed out is a new database on that server, cloned from a migrated
// template (~0.1 s; see postgres-template-setup.ts) rather than migrated anew, dropped when it is
// closed or disposed (in the background: by the end of the test file).
//
// Usage, one database per suite emptied before each test (TRUNCATE costs ~50 ms, a fresh database
// ~0.3–1 s):
//   forEachDriver("projects", (driver) => {
//     const storage = useStorage(driver);
//     it("…", async () => { … storage().db … });
//   });
// or, for a database of a test's own: `const storage = await driver.open(); … await storage.close();`
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, inject } from "vitest";
import type { MigrationPolicy, Storage, StorageDriver } from "../../src/storage/index.ts";
import { inBackground } from "./background.ts";
import { withPgClient } from "./pg-client.ts";
import { killLeftoverChildren } from "./process.ts";
import { migratedTemplate, openPgliteStorage, PGDATA_DIR, pgliteOptions } from "../../src/storage/pglite.ts";
import { openPostgresStorage } from "../../src/storage/postgres.ts";

export interface TestDriver {
  readonly name: StorageDriver;
  /** Why this driver's suites are skipped; undefined when they run. */
  readonly skipReason: string | undefined;
  /** A fresh migrated database, open in this process. Its `close()` also throws it away. */
  open(): Promise<Storage>;
  /**
   * A fresh database for other processes to open (a server, `pbs`); not open here. Migrated unless
   * `migrated` is false (then empty: for PGlite, a data directory without a database yet).
   */
  forProcess(options?: { migrated?: boolean }): Promise<ProcessDatabase>;
}

export interface ProcessDatabase {
  /** A temp DATA_DIR (for PGlite it holds the database; always usable for the admin socket). */
  readonly dataDir: string;
  /** Set on the PostgreSQL driver. */
  readonly databaseUrl: string | undefined;
  /** Environment for a child process: DATA_DIR, and DATABASE_URL (empty for PGlite, so an inherited one cannot leak in). */
  readonly env: { readonly DATA_DIR: string; readonly DATABASE_URL: string };
  /** Opens the database in this process (for PGlite: only while no other process has it open); migrating it by default. */
  open(options?: { migrations?: MigrationPolicy }): Promise<Storage>;
  /** Drops the database and removes the data directory. */
  dispose(): Promise<void>;
}

export const testDatabaseUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

export const pgliteDriver: TestDriver = {
  name: "pglite",
  skipReason: undefined,
  async open() {
    return openPgliteStorage({ client: await reusablePglite() });
  },
  async forProcess(options = {}) {
    const dataDir = await mkdtemp(join(tmpdir(), "pbs-test-"));
    if (options.migrated !== false) {
      // Loading the template into a data directory writes the cluster there; closing flushes it.
      const loader = await PGlite.create({ dataDir: join(dataDir, PGDATA_DIR), loadDataDir: await pgliteTemplate() });
      await loader.close();
    }
    return {
      dataDir,
      databaseUrl: undefined,
      env: { DATA_DIR: dataDir, DATABASE_URL: "" },
      open: (openOptions) => openPgliteStorage({ dataDir, ...openOptions }),
      dispose: () => rm(dataDir, { recursive: true, force: true }),
    };
  },
};

export const postgresDriver: TestDriver = {
  name: "postgres",
  skipReason: testDatabaseUrl ? undefined : "set TEST_DATABASE_URL to run the PostgreSQL suites",
  async open() {
    const database = await createDatabase({ migrated: true });
    const storage = await openPostgresStorage({ url: database.url, poolSize: 4 });
    const close = storage.close;
    let closed: Promise<void> | undefined;
    return Object.assign(storage, {
      close() {
        closed ??= close().then(() => inBackground(database.drop));
        return closed;
      },
    });
  },
  async forProcess(options = {}) {
    const database = await createDatabase({ migrated: options.migrated !== false });
    const dataDir = await mkdtemp(join(tmpdir(), "pbs-test-"));
    return {
      dataDir,
      databaseUrl: database.url,
      env: { DATA_DIR: dataDir, DATABASE_URL: database.url },
      open: (openOptions) => openPostgresStorage({ url: database.url, poolSize: 4, ...openOptions }),
      async dispose() {
        inBackground(database.drop);
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  },
};

/** Both drivers, PGlite first. */
export function storageDrivers(): TestDriver[] {
  return [pgliteDriver, postgresDriver];
}

/**
 * Declares `body` once per driver, inside `describe("<title> [pglite]")` and `describe("<title>
 * [postgres]")`; a driver that cannot run is reported as skipped with the reason in its name.
 * `drivers` narrows it to some of them: a long suite declared in one file per driver runs on two
 * workers at once.
 */
export function forEachDriver(
  title: string,
  body: (driver: TestDriver) => void,
  drivers: readonly StorageDriver[] = ["pglite", "postgres"],
): void {
  for (const driver of storageDrivers().filter((each) => drivers.includes(each.name))) {
    const name = driver.skipReason
      ? `${title} [${driver.name}] (skipped: ${driver.skipReason})`
      : `${title} [${driver.name}]`;
    describe.skipIf(driver.skipReason !== undefined)(name, () => body(driver));
  }
}

/**
 * Declares a suite whose subject does not depend on the storage driver (validation, scopes,
 * pagination, the console, MCP, …): it runs on the embedded database alone, as `<title> [pglite]`.
 * The suites about storage, concurrency, outages, replicas and the event stream use forEachDriver.
 */
export function onEmbeddedDatabase(title: string, body: (driver: TestDriver) => void): void {
  forEachDriver(title, body, ["pglite"]);
}

/**
 * Registers hooks that open one database for the enclosing suite, empty it before each test and
 * close it after the suite. Returns the accessor for the tests.
 */
export function useStorage(driver: TestDriver): () => Storage {
  let storage: Storage | undefined;
  beforeAll(async () => {
    storage = await driver.open();
  });
  beforeEach(async () => {
    if (storage) await emptyDatabase(storage);
  });
  afterAll(async () => {
    await storage?.close();
  });
  return () => {
    if (!storage) throw new Error("the suite's database is not open (did beforeAll fail?)");
    return storage;
  };
}

/**
 * Registers hooks that make one database for the child processes of the enclosing suite (servers,
 * `pbs`) before its tests, and after them kill the children still running and remove it. Returns
 * the accessor for the tests.
 */
export function useProcessDatabase(driver: TestDriver): () => ProcessDatabase {
  let database: ProcessDatabase | undefined;
  beforeAll(async () => {
    database = await driver.forProcess();
  });
  afterAll(async () => {
    // The servers first: a database is removed only once nothing has it open.
    killLeftoverChildren();
    await database?.dispose();
  });
  return () => {
    if (!database) throw new Error("the suite's database was not made (did beforeAll fail?)");
    return database;
  };
}

/** Deletes every row of every application table (the migrations journal stays). */
export async function emptyDatabase(storage: Storage): Promise<void> {
  const tables = await storage.db.execute<{ name: string }>(
    sql`select quote_ident(table_name) as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  if (tables.rows.length === 0) return;
  await storage.db.execute(
    sql.raw(`truncate ${tables.rows.map((table) => table.name).join(", ")} restart identity cascade`),
  );
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: one database per request

/**
 * A new database: migrated (cloned from the run's template, or migrated here when there is none:
 * a file run without the global setup) or empty. Its name carries the worker's pool id, so that a
 * database left behind says which worker made it.
 */
async function createDatabase(options: { migrated: boolean }): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `pbs_test_w${process.env.VITEST_POOL_ID ?? 0}_${process.pid}_${randomBytes(6).toString("hex")}`;
  const template = options.migrated ? inject("postgresTemplate") : undefined;
  await withAdmin((admin) => admin.query(`create database "${name}"${template ? ` template "${template}"` : ""}`));
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  // Migrate now, as a server would on start, so tests may query before any process ran.
  if (options.migrated && !template) await (await openPostgresStorage({ url: url.toString(), poolSize: 1 })).close();
  return {
    url: url.toString(),
    drop: () => dropDatabase(name),
  };
}

/**
 * Drops a test database, ending any session still on it. Sessions that are closing (a pool's
 * `end()` resolves before its connections have gone) get a moment to go first: a session ended by
 * the drop gets an error its client may report as unhandled, failing a test that did nothing wrong.
 */
async function dropDatabase(name: string): Promise<void> {
  await withAdmin(async (admin) => {
    const deadline = Date.now() + 2000;
    for (;;) {
      const { rows } = await admin.query<{ sessions: number }>(
        "select count(*)::int as sessions from pg_stat_activity where datname = $1",
        [name],
      );
      if (rows[0]!.sessions === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await admin.query(`drop database if exists "${name}" with (force)`);
  });
}

function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL is not set");
  return withPgClient(testDatabaseUrl, work);
}

// ---------------------------------------------------------------------------------------------
// PGlite: the migrated template (src/storage/pglite-template.ts), built once per machine and migration set

/**
 * The PGlite clusters this worker made and whose storage was closed since: emptied back to the
 * template's state and handed out again. Files run one after another in a worker (isolate: false),
 * so after its first file a worker opens no new cluster, which costs ~0.4 s of CPU; emptying one
 * costs ~50 ms.
 */
const idlePglites: PGlite[] = [];

/**
 * A cluster from the idle ones or a new one, as a PGlite whose `close` empties it and keeps it
 * for the next `open` instead (a cluster that cannot be emptied is closed for good).
 */
async function reusablePglite(): Promise<PGlite> {
  const client = idlePglites.pop() ?? (await PGlite.create({ ...pgliteOptions, loadDataDir: await pgliteTemplate() }));
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= emptyPglite(client).then(
      () => void idlePglites.push(client),
      () => client.close(),
    ));
  return new Proxy(client, {
    get(target, property) {
      if (property === "close") return close;
      if (property === "closed") return closed !== undefined;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      // Closed, it answers as a closed PGlite does, whoever has the cluster now.
      return closed
        ? () => Promise.reject(new Error("PGlite is closed"))
        : (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
}

/**
 * Back to the template's state: every application table emptied and its sequences restarted, and
 * the session reset (prepared statements, listeners, settings). The job queue's schema, which the
 * first server installed, stays, emptied as it was installed: no queue, no job, no maintenance yet.
 */
async function emptyPglite(client: PGlite): Promise<void> {
  const { rows: tables } = await client.query<{ name: string }>(
    `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
     where table_type = 'BASE TABLE'
       and (table_schema = 'public' or (table_schema = 'pgboss' and table_name <> 'version'))`,
  );
  const { rows: sequences } = await client.query<{ name: string }>(
    `select format('%I.%I', sequence_schema, sequence_name) as name from information_schema.sequences
     where sequence_schema = 'public'`,
  );
  await client.exec(
    [
      `truncate ${tables.map((table) => table.name).join(", ")} restart identity cascade`,
      ...sequences.map((sequence) => `alter sequence ${sequence.name} restart`),
      // Whether this cluster's job queue is installed yet or not.
      `do $$ begin if to_regclass('pgboss.version') is not null then
         update pgboss.version set cron_on = null, bam_on = null, flow_on = null, reindex_on = null, monitor_backoff_on = null;
       end if; end $$`,
    ].join(";\n"),
  );
  // Outside the statements above, which run as one transaction.
  await client.exec("discard all");
}

let template: Promise<Blob> | undefined;

/** The migrated cluster as a tarball, for `PGlite.create({ loadDataDir })`. */
export function pgliteTemplate(): Promise<Blob> {
  template ??= migratedTemplate().catch((error: unknown) => {
    template = undefined; // let the next test try again rather than fail forever
    throw error;
  });
  return template;
}
