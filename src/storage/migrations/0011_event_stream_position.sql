-- The live event stream (GET /v1/events/stream, src/domain/event-stream.ts) sends a partition's
-- events in the order their transactions became visible, and resumes after an event with nothing
-- repeated and nothing missed. Event ids are random and concurrent transactions commit out of
-- order, so neither `id` nor `created_at` can say what is "after". Each event gets a position:
-- `txid`, the id of the transaction that recorded it, then `seq`, from a sequence, within it. A
-- reader takes only events whose txid is below its snapshot's xmin: every transaction below xmin has
-- ended, and every one still to commit has a txid ≥ xmin, so nothing can later appear before the
-- last position it sent.
-- Both columns are filled by their DEFAULTs: the statement recording events (src/domain/events.ts)
-- names neither, nor does the previous release's. Events recorded before this migration get this
-- migration's transaction id and a seq in creation order. Every statement is safe to run again.
-- The columns are not in schema.ts (drizzle has no xid8): only the stream's queries, in raw SQL, read them.
CREATE SEQUENCE IF NOT EXISTS "events_seq";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN IF NOT EXISTS "txid" xid8;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN IF NOT EXISTS "seq" bigint;--> statement-breakpoint
UPDATE "events" SET "txid" = pg_current_xact_id(), "seq" = ordered.n
  FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS n FROM "events" WHERE "seq" IS NULL) AS ordered
  WHERE "events"."id" = ordered."id";--> statement-breakpoint
SELECT setval('events_seq', greatest((SELECT max("seq") FROM "events"), 1));--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "txid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "seq" SET DEFAULT nextval('events_seq');--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "txid" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER SEQUENCE "events_seq" OWNED BY "events"."seq";--> statement-breakpoint
-- Streams on every replica hear of new events on the channel `events_recorded` (src/storage/notifications.ts),
-- once per statement and partition: payload `<workspace_id>:<environment>`. NOTIFY leaves at commit.
CREATE OR REPLACE FUNCTION notify_events_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  partition text;
BEGIN
  FOR partition IN SELECT DISTINCT workspace_id || ':' || environment FROM recorded LOOP
    PERFORM pg_notify('events_recorded', partition);
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER events_recorded AFTER INSERT ON "events" REFERENCING NEW TABLE AS recorded
  FOR EACH STATEMENT EXECUTE FUNCTION notify_events_recorded();
