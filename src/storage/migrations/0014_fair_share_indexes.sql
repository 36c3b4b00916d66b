-- A tenant's last turn among its queued runs and builds, and the queues' depth per tenant (migration
-- 0013). Built CONCURRENTLY: both tables take writes on every run and deployment.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "agent_runs_queued_idx" ON "agent_runs" USING btree ("workspace_id","environment","queue_round") WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "deployments_queued_idx" ON "deployments" USING btree ("workspace_id","environment","queue_round") WHERE status = 'queued';
