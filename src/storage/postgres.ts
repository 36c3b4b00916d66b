// PostgreSQL server through node-postgres: the driver for DATABASE_URL, shared by any number of
// replicas (and by `pbs` while they run).
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { Database, PostgresStorage } from "./index.ts";
import { migrationsFolder } from "./index.ts";
import * as schema from "./schema.ts";
import { postgresChangeFeed } from "./notifications.ts";

// Any constant unique to this application: replicas starting together take turns migrating.
const MIGRATION_LOCK_ID = 0x7062_7301;

export interface PostgresOptions {
  readonly url: string;
  readonly poolSize?: number;
}

export async function openPostgresStorage(options: PostgresOptions): Promise<PostgresStorage> {
  const changes = postgresChangeFeed(options.url);
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10, onConnect: changes.listenOn });
  // An idle client losing its connection (server restart) must not crash the process; the pool
  // replaces it and the next query reports any lasting problem.
  pool.on("error", () => {});
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
