// How long idempotency keys are kept: a rule of the API's promise ("replays for 24 hours"), carried
// out by housekeeping (src/jobs/workers.ts). Claiming and replaying keys is the pipeline's
// (src/http/idempotency.ts); removing the expired ones needs no request, so it lives here.
import { and, lte, sql } from "drizzle-orm";
import type { AnyPgDatabase } from "../storage/index.ts";
import { idempotencyKeys } from "../storage/schema.ts";

/**
 * Deletes rows past expires_at (replay windows that ended, leases of crashed requests), at most
 * `limit` per call so a periodic job never holds a long lock. Returns how many were deleted; call
 * again while it returns `limit`.
 */
export async function purgeExpiredIdempotencyKeys(
  db: AnyPgDatabase,
  options?: { readonly now?: () => number; readonly limit?: number },
): Promise<number> {
  const now = new Date((options?.now ?? Date.now)());
  const limit = options?.limit ?? 1000;
  const t = idempotencyKeys;
  // PostgreSQL has no DELETE … LIMIT: pick a bounded batch of primary keys, and re-check expiry on
  // the rows themselves so a key re-claimed meanwhile is never removed.
  const deleted = await db
    .delete(t)
    .where(
      and(
        lte(t.expiresAt, now),
        sql`(${t.workspaceId}, ${t.environment}, ${t.key}) in (select ${t.workspaceId}, ${t.environment}, ${t.key} from ${t} where ${t.expiresAt} <= ${now} limit ${limit})`,
      ),
    )
    .returning({ key: t.key });
  return deleted.length;
}
