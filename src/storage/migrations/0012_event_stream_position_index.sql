-- The event stream's reads: a partition's events after a position, in position order (migration 0011).
-- Built CONCURRENTLY: events take writes on every change.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "events_position_idx" ON "events" USING btree ("workspace_id", "environment", "txid", "seq");
