// PostgreSQL server through node-postgres: the driver for DATABASE_URL, shared by any number of
// replicas (and by `pbs` while they run).
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { storageBase, type Database, type MigrationPolicy, type PostgresStorage } from "./driver.ts";
import * as schema from "./schema.ts";
import {
  applyMigrations,
  readMigrations,
  requireCurrentSchema,
  type ApplyOptions,
  type MigrationReport,
  type MigrationSession,
} from "./migrator.ts";
import { postgresChangeFeed } from "./notifications.ts";

const CONNECT_TIMEOUT_MS = 5000;

export interface PostgresOptions {
  readonly url: string;
  readonly poolSize?: number;
  /** What to do about the schema on opening (default "apply"). */
  readonly migrations?: MigrationPolicy;
}

export async function openPostgresStorage(options: PostgresOptions): Promise<PostgresStorage> {
  const changes = postgresChangeFeed(options.url);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg-pool awaits it; @types/pg says void
    onConnect: changes.listenOn,
    // While the database cannot be reached, a request waits this long for a connection at most, then
    // answers 503 (rather than waiting as long as the operating system lets a connect hang).
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A connection whose peer vanished without a reset (a cut network) is found out by TCP
    // keepalives, probing after 10 s of silence (then as often as the operating system says).
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle client losing its connection (server restart) must not crash the process; the pool
  // replaces it and the next query reports any lasting problem.
  pool.on("error", () => {});
  // Nor may a client that loses it while checked out (a transaction, a migration): pg-pool leaves
  // such a client without an 'error' listener, so its error would be thrown as uncaught. Its queries
  // fail (503), and the pool discards it when it is released.
  pool.on("connect", (client) => client.on("error", () => {}));
  const policy = options.migrations ?? "apply";
  try {
    if (policy === "apply") await migratePool(pool);
    if (policy === "require")
      await withMigrationSession(pool, (session) => requireCurrentSchema(session, readMigrations()));
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db: Database = drizzle({ client: releasingOnFailedBegin(pool), schema });
  return {
    driver: "postgres",
    pool,
    ...storageBase(db, changes, {
      query: (text) => pool.query(text),
      migrate: (migrateOptions) => migratePool(pool, migrateOptions),
      end: () => pool.end(),
    }),
  };
}

/** Applies the pending migrations through `pool` (for code that has a pool but no storage: tests). */
export function migratePool(pool: pg.Pool, options?: ApplyOptions): Promise<MigrationReport> {
  return withMigrationSession(pool, (session) => applyMigrations(session, readMigrations(), options));
}

/**
 * Runs `work` on one connection of the pool, which is then closed rather than returned: the
 * migration lock belongs to the session, and a session that ends cannot keep it by mistake.
 */
export async function withMigrationSession<T>(
  pool: pg.Pool,
  work: (session: MigrationSession) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    return await work(pgSession(client));
  } finally {
    client.release(true);
  }
}

function pgSession(client: pg.PoolClient): MigrationSession {
  const execute = async (statement: string) => {
    await client.query(statement);
  };
  const query = async <Row extends Record<string, unknown>>(text: string, params?: unknown[]) =>
    (await client.query<Row>(text, params)).rows;
  return {
    execute,
    query,
    async transaction(work) {
      await client.query("begin");
      try {
        await work({ execute, query });
        await client.query("commit");
      } catch (error) {
        await client.query("rollback").catch(() => {});
        throw error;
      }
    },
  };
}

/**
 * The pool as drizzle sees it. drizzle-orm 0.45's node-postgres `transaction()` sends BEGIN before
 * the try/finally that releases its client (drizzle-team/drizzle-orm#6241, open): a BEGIN that fails
 * (the connection died between checkout and BEGIN's answer, which an outage under traffic makes
 * likely) would keep its client checked out for good, and once `poolSize` of them were lost every
 * request would wait for a connection forever. So the first statement on a client drizzle checks out,
 * its BEGIN, releases that client (which pg-pool then discards) if it fails. Everything else is the
 * pool's own: plain queries check out and release their clients inside `pool.query`.
 */
function releasingOnFailedBegin(pool: pg.Pool): pg.Pool {
  const connect = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect();
    const query = client.query;
    const first = (...args: unknown[]): unknown => {
      // Back to the client's own method before anything else happens on it.
      delete (client as { query?: unknown }).query;
      const result = (query as (...a: unknown[]) => unknown).apply(client, args);
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          client.release(error instanceof Error ? error : true);
          // Discarded by the pool: a drizzle that does release it (once fixed) must not release it twice.
          client.release = () => {};
        });
      }
      return result;
    };
    Object.defineProperty(client, "query", { value: first, configurable: true, writable: true });
    return client;
  };
  return new Proxy(pool, {
    get(target, property) {
      if (property === "connect") return connect;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
