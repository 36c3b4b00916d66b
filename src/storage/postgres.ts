// PostgreSQL server through node-postgres: the driver for DATABASE_URL, shared by any number of
// replicas (and by `pbs` while they run).
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { Database, PostgresStorage } from "./index.ts";
import { migrationsFolder } from "./index.ts";
import * as schema from "./schema.ts";
import { postgresChangeFeed } from "./notifications.ts";

const CONNECT_TIMEOUT_MS = 5000;

// Any constant unique to this application: replicas starting together take turns migrating.
const MIGRATION_LOCK_ID = 0x7062_7301;

export interface PostgresOptions {
  readonly url: string;
  readonly poolSize?: number;
}

export async function openPostgresStorage(options: PostgresOptions): Promise<PostgresStorage> {
  const changes = postgresChangeFeed(options.url);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
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
  try {
    await migrateWithLock(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db: Database = drizzle({ client: pool, schema });
  let closed: Promise<void> | undefined;
  return {
    driver: "postgres",
    db,
    pool,
    changes,
    async ping() {
      await pool.query("select 1");
    },
    close() {
      closed ??= changes.close().then(() => pool.end());
      return closed;
    },
  };
}

/** Applies pending migrations while holding an advisory lock, so concurrent starts do not race. */
async function migrateWithLock(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    try {
      await migrate(drizzle({ client, schema }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]);
    }
  } finally {
    client.release();
  }
}
