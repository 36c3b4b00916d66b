// When a credential was last used (an API key, an OAuth grant): rewritten at most once a minute, so
// a busy key costs no write per request, and by one replica only when several race.
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Queryable } from "../storage/index.ts";
import { apiKeys, oauthGrants } from "../storage/schema.ts";

/** last_used_at is rewritten only when older than this. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Records a use when the stored one is older than the resolution; returns the time now stored. */
export async function recordLastUse(
  db: Queryable,
  table: typeof apiKeys | typeof oauthGrants,
  row: { readonly id: string; readonly lastUsedAt: Date | null },
  now: Date,
): Promise<Date | null> {
  const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  if (row.lastUsedAt && row.lastUsedAt > staleBefore) return row.lastUsedAt;
  // The same condition in SQL: of replicas racing on one credential, only the first writes.
  const updated = await db
    .update(table as typeof apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(table.id, row.id), or(isNull(table.lastUsedAt), lt(table.lastUsedAt, staleBefore))))
    .returning({ lastUsedAt: table.lastUsedAt });
  return updated[0]?.lastUsedAt ?? row.lastUsedAt;
}
