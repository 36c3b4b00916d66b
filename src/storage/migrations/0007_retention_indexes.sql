-- Indexes for the retention job (AUDIT_RETENTION_DAYS, src/domain/retention.ts), which deletes the
-- oldest audit rows, deliveries and events in small batches. Built CONCURRENTLY: these tables take
-- writes on every request, and a plain CREATE INDEX would block them until it finished.
CREATE INDEX CONCURRENTLY "audit_log_occurred_at_idx" ON "audit_log" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX CONCURRENTLY "events_created_at_idx" ON "events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX CONCURRENTLY "webhook_deliveries_created_at_idx" ON "webhook_deliveries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX CONCURRENTLY "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");
