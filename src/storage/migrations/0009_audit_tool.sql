-- The MCP tool an API request came as (src/mcp/): a tool call is recorded like the request it
-- carries out, with the tool's name, which the console's audit page, its CSV and `pbs audit` show.
-- A nullable column without a default: PostgreSQL adds it without rewriting the table, and the
-- previous release's inserts, which do not name it, still work. IF NOT EXISTS: applying it again
-- (a database whose record of it was lost) changes nothing.
ALTER TABLE "audit_log" ADD COLUMN IF NOT EXISTS "tool" text;
