-- The builds recorded before versions existed become versions: each succeeded run with a snapshot
-- is a version of its project (source agent_run), numbered in the order the runs finished, with the
-- snapshot's tree; the runs and the deployments of their builds then name those versions.
INSERT INTO "versions" ("id", "project_id", "workspace_id", "environment", "number", "source", "agent_run_id", "message", "file_count", "size_bytes", "created_at")
SELECT new_id('ver'), r."project_id", r."workspace_id", r."environment",
  row_number() OVER (PARTITION BY r."project_id" ORDER BY r."finished_at", r."id"),
  'agent_run', r."id", r."summary", t."file_count", t."size_bytes", coalesce(r."finished_at", r."created_at")
FROM "agent_runs" r
JOIN (SELECT "run_id", count(*)::integer AS "file_count", sum("size_bytes")::bigint AS "size_bytes" FROM "run_files" GROUP BY "run_id") t
  ON t."run_id" = r."id"
WHERE r."status" = 'succeeded' AND NOT EXISTS (SELECT 1 FROM "versions" v WHERE v."project_id" = r."project_id");
--> statement-breakpoint
INSERT INTO "version_files" ("version_id", "path", "sha256", "content_type", "size_bytes")
SELECT v."id", f."path", f."sha256", f."content_type", f."size_bytes"
FROM "versions" v JOIN "run_files" f ON f."run_id" = v."agent_run_id"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
UPDATE "agent_runs" r SET "version_id" = v."id" FROM "versions" v WHERE v."agent_run_id" = r."id" AND r."version_id" IS NULL;
--> statement-breakpoint
UPDATE "deployments" d SET "version_id" = r."version_id" FROM "agent_runs" r WHERE r."id" = d."run_id" AND d."version_id" IS NULL;
