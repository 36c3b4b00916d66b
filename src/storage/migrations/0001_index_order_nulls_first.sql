DROP INDEX "agent_runs_page_idx";--> statement-breakpoint
DROP INDEX "agent_runs_project_idx";--> statement-breakpoint
DROP INDEX "api_keys_workspace_idx";--> statement-breakpoint
DROP INDEX "audit_log_workspace_idx";--> statement-breakpoint
DROP INDEX "deployments_page_idx";--> statement-breakpoint
DROP INDEX "deployments_project_idx";--> statement-breakpoint
DROP INDEX "events_page_idx";--> statement-breakpoint
DROP INDEX "files_page_idx";--> statement-breakpoint
DROP INDEX "files_project_idx";--> statement-breakpoint
DROP INDEX "invoices_page_idx";--> statement-breakpoint
DROP INDEX "projects_page_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_page_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_endpoint_idx";--> statement-breakpoint
DROP INDEX "webhook_endpoints_page_idx";--> statement-breakpoint
CREATE INDEX "agent_runs_page_idx" ON "agent_runs" USING btree ("workspace_id","environment","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "agent_runs_project_idx" ON "agent_runs" USING btree ("project_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "api_keys_workspace_idx" ON "api_keys" USING btree ("workspace_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_workspace_idx" ON "audit_log" USING btree ("workspace_id","occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "deployments_page_idx" ON "deployments" USING btree ("workspace_id","environment","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "deployments_project_idx" ON "deployments" USING btree ("project_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "events_page_idx" ON "events" USING btree ("workspace_id","environment","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "files_page_idx" ON "files" USING btree ("workspace_id","environment","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "files_project_idx" ON "files" USING btree ("project_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "invoices_page_idx" ON "invoices" USING btree ("workspace_id","environment","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "projects_page_idx" ON "projects" USING btree ("workspace_id","environment","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_page_idx" ON "webhook_deliveries" USING btree ("workspace_id","environment","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("webhook_endpoint_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_endpoints_page_idx" ON "webhook_endpoints" USING btree ("workspace_id","environment","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);