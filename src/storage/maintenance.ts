// Autovacuum's work, for the embedded PGlite, which has none (PostgreSQL does it by itself): the
// periodic jobs (src/jobs/workers.ts) call these when WorkerOptions.withoutAutovacuum is set.
import { sql } from "drizzle-orm";
import type { Queryable } from "./driver.ts";

/**
 * Refreshes the planner's statistics of every table. Without it a table that grew, say to 100,000
 * projects, keeps the statistics of its first rows, and a project read by id took the wrong index
 * (130 instead of 1,100 reads a second).
 */
export async function refreshPlannerStatistics(db: Queryable): Promise<void> {
  await db.execute(sql`analyze`);
}

/** The tables retention (src/domain/retention.ts) deletes from. */
const RETAINED_TABLES = ["webhook_deliveries", "webhook_delivery_attempts", "events", "audit_log"] as const;

/** Vacuums the tables retention deleted from, so their space is used again instead of the data directory growing. */
export async function reclaimRetainedTablesSpace(db: Queryable): Promise<void> {
  await db.execute(
    sql`vacuum (analyze) ${sql.join(
      RETAINED_TABLES.map((table) => sql.identifier(table)),
      sql`, `,
    )}`,
  );
}
