-- Fair dispatch across tenants (src/domain/fair-share.ts): each queued run and build takes a turn,
-- and each job queue keeps the turn of the job started last. Old rows and the previous release's
-- inserts leave queue_round NULL: their jobs keep pg-boss's plain order.
CREATE TABLE IF NOT EXISTS "work_queue_clocks" (
	"queue" text PRIMARY KEY NOT NULL,
	"round" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_runs" ADD COLUMN IF NOT EXISTS "queue_round" integer;--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN IF NOT EXISTS "queue_round" integer;
