-- How many requests an audit row stands for: 1 for every row but the one a window's refusals past
-- the pages' per-address limit are counted in (src/web/page-limit.ts). A NOT NULL column with a
-- default: the previous release's inserts, which do not name it, still work, and PostgreSQL adds
-- it without rewriting the table. IF NOT EXISTS: applying it again (a database whose record of it was
-- lost) changes nothing.
ALTER TABLE "audit_log" ADD COLUMN IF NOT EXISTS "count" integer DEFAULT 1 NOT NULL;
