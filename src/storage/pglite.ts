// PGlite: PostgreSQL compiled to WebAssembly, running inside this process on files in DATA_DIR.
//
// Layout of DATA_DIR:
//   pgdata/     the database cluster
//   pbs.lock    the pid of the process that has the database open
//   admin.sock  that process's admin socket, when it is a server (see src/cli/admin-socket.ts)
//
// PGlite itself does not stop a second process from opening the same files, and two would corrupt
// them. So opening takes the lock file first (created exclusively); a lock whose pid is no longer
// running was left by a crash and is taken over. `pbs`, finding the directory locked, talks to the
// owner through its admin socket instead.
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { storageBase, type Database, type MigrationPolicy, type PgliteStorage } from "./driver.ts";
import * as schema from "./schema.ts";
import {
  applyMigrations,
  readMigrations,
  requireCurrentSchema,
  SchemaNotCurrentError,
  type ApplyOptions,
  type MigrationReport,
  type MigrationSession,
} from "./migrator.ts";
import { pgliteChangeFeed, type ChangeFeed } from "./notifications.ts";
import { readTemplate, saveTemplate, templateOrBuild } from "./pglite-template.ts";

export const PGDATA_DIR = "pgdata";

const BYTEA_OID = 17;

/**
 * Options for every PGlite of this server. PGlite converts bytea to and from its hex text form one
 * byte at a time in JavaScript (~0.5 s of CPU per MiB uploaded, ~0.1 s per MiB downloaded); Node's
 * hex codec does the same natively.
 */
export const pgliteOptions = {
  serializers: {
    [BYTEA_OID]: (value: Uint8Array) =>
      `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`,
  },
  parsers: {
    [BYTEA_OID]: (text: string) => Buffer.from(text.slice(2), "hex"),
  },
} satisfies PGliteOptions;
export const LOCK_FILE = "pbs.lock";

/** Another live process has this data directory open. */
export class DataDirInUseError extends Error {
  readonly dataDir: string;
  readonly pid: number;
  constructor(dataDir: string, pid: number) {
    super(`the data directory ${dataDir} is in use by process ${pid}`);
    this.name = "DataDirInUseError";
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

export type PgliteOptions = (
  | /** The database in `dataDir`, created on first use (unless `migrations` is "require"). */ {
      readonly dataDir: string;
    }
    /** An already opened PGlite (tests: an in-memory clone of a migrated template). Closed with the storage. */
  | { readonly client: PGlite }
) & {
  /** What to do about the schema on opening (default "apply"). */
  readonly migrations?: MigrationPolicy;
};

export async function openPgliteStorage(options: PgliteOptions): Promise<PgliteStorage> {
  const dataDir = "dataDir" in options ? options.dataDir : undefined;
  const policy = options.migrations ?? "apply";
  let releaseLock = async () => {};
  let client: PGlite;
  /** A cluster made by initdb here: once migrated, it becomes the template for the next ones. */
  let fresh = false;
  if (dataDir === undefined) {
    client = (options as { client: PGlite }).client;
  } else {
    // Asked only to use a database: never create one where there is none.
    if (policy === "require" && !existsSync(join(dataDir, PGDATA_DIR))) {
      throw new SchemaNotCurrentError(
        readMigrations().map((migration) => migration.tag),
        true,
      );
    }
    // 0700: the directory holds the database and the admin socket; nobody else may enter.
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    releaseLock = await lockDataDir(dataDir);
    try {
      const pgdata = join(dataDir, PGDATA_DIR);
      fresh = !(await stat(join(pgdata, "PG_VERSION")).catch(() => undefined));
      // A new cluster starts from the migrated template when there is one (pglite-template.ts).
      const template = fresh ? await readTemplate() : undefined;
      if (template) fresh = false;
      client = await PGlite.create({
        ...pgliteOptions,
        dataDir: pgdata,
        ...(template ? { loadDataDir: template } : {}),
      });
    } catch (error) {
      await releaseLock();
      throw error;
    }
  }
  const db: Database = drizzle({ client, schema });
  let changes: ChangeFeed;
  try {
    if (policy === "apply") await migratePglite(client);
    if (policy === "require") await requireCurrentSchema(pgliteSession(client), readMigrations());
    // Best effort: a read-only node_modules only means the next new data directory starts slowly too.
    if (fresh && policy === "apply") await saveTemplate(await client.dumpDataDir("none")).catch(() => undefined);
    changes = await pgliteChangeFeed(client);
  } catch (error) {
    await client.close();
    await releaseLock();
    throw error;
  }
  return {
    driver: "pglite",
    client,
    dataDir,
    ...storageBase(db, changes, {
      query: (text) => client.query(text),
      migrate: (migrateOptions) => migratePglite(client, migrateOptions),
      end: () => client.close().finally(releaseLock),
    }),
  };
}

/** The migrated template (pglite-template.ts), built in memory when there is none yet. */
export function migratedTemplate(): Promise<Blob> {
  return templateOrBuild(async () => {
    const storage = await openPgliteStorage({ client: await PGlite.create() });
    const tarball = await storage.client.dumpDataDir("none");
    await storage.close();
    return tarball;
  });
}

/** Applies the pending migrations to `client` (for code that has a PGlite but no storage: tests). */
export function migratePglite(client: PGlite, options?: ApplyOptions): Promise<MigrationReport> {
  return applyMigrations(pgliteSession(client), readMigrations(), options);
}

/**
 * Migrations on PGlite's one connection. Its `transaction` holds the connection for the whole
 * transaction, so requests served meanwhile (`pbs migrate` through a running server's admin
 * socket) wait instead of landing inside it.
 */
export function pgliteSession(client: PGlite): MigrationSession {
  const on = (target: Pick<PGlite, "exec" | "query">): Omit<MigrationSession, "transaction"> => ({
    async execute(statement) {
      await target.exec(statement);
    },
    async query<Row extends Record<string, unknown>>(text: string, params?: unknown[]) {
      return (await target.query<Row>(text, params)).rows;
    },
  });
  return { ...on(client), transaction: (work) => client.transaction((tx) => work(on(tx))) };
}

/**
 * Takes the data directory's lock file, or throws DataDirInUseError. Returns the release function.
 * (Two processes taking over the same stale lock at the same instant could both succeed; a crash
 * followed by two simultaneous starts is the only way there, and it is not worth a native flock.)
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = join(dataDir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(lockPath, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      return async () => {
        await rm(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw lockError(error, dataDir, lockPath);
    }
    const owner = await readLockOwner(dataDir);
    if (owner !== undefined) throw new DataDirInUseError(dataDir, owner);
    await rm(lockPath, { force: true }); // left by a process that is gone
  }
}

/** The pid holding the data directory, or undefined when no live process does. */
export async function readLockOwner(dataDir: string): Promise<number | undefined> {
  const content = await readFile(join(dataDir, LOCK_FILE), "utf8").catch(() => "");
  const pid = Number.parseInt(content, 10);
  return Number.isInteger(pid) && pid > 0 && isRunning(pid) ? pid : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by another user
  }
}

function lockError(error: unknown, dataDir: string, lockPath: string): unknown {
  if ((error as NodeJS.ErrnoException).code === "EEXIST") {
    return new Error(`could not take the lock ${lockPath} on ${dataDir}; another process took it first`);
  }
  return error;
}
