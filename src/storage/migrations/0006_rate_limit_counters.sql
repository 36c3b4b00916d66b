-- Rate-limit counters shared by replicas that have PostgreSQL but no Redis (src/http/rate-limit.ts).
-- One fixed window per row, named `<prefix>:<window length>s:<API key id>`. The table `rate_limits`
-- that earlier releases created at start (rate-limiter-flexible) is left in place: during a rolling
-- deploy the previous release still counts there. A later migration drops it.
CREATE TABLE rate_limit_counters (
  key text PRIMARY KEY,
  count integer NOT NULL,
  resets_at timestamptz NOT NULL
);
--> statement-breakpoint
-- Counts one request in every window of `keys` when every window has room (all or nothing), in one
-- statement. Each counter row is locked by its upsert until the statement ends, so concurrent
-- requests of one key take turns; the keys of one request always come in the same order, so they
-- cannot deadlock. Returns each window's count (after the request; before it when refused) and the
-- milliseconds until it resets, on the database's clock so every replica agrees. Asynchronous commit:
-- see the first line of the body.
CREATE FUNCTION rate_limit_consume(keys text[], limits integer[], durations_ms integer[])
RETURNS TABLE (allowed boolean, counts integer[], reset_in_ms integer[])
LANGUAGE plpgsql AS $$
DECLARE
  at timestamptz := clock_timestamp();
  counted integer;
  resets timestamptz;
BEGIN
  -- Counters need not survive a crash (a limit briefly lenient after one is harmless), so this
  -- statement's commit does not wait for the WAL to reach disk: under one hot key, whose row lock is
  -- held until the commit is flushed, that wait is what bounds the rate.
  PERFORM set_config('synchronous_commit', 'off', true);
  allowed := true;
  counts := '{}';
  reset_in_ms := '{}';
  FOR i IN 1 .. coalesce(array_length(keys, 1), 0) LOOP
    INSERT INTO rate_limit_counters AS counter (key, count, resets_at)
      VALUES (keys[i], 1, at + durations_ms[i] * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN counter.resets_at <= at THEN 1 ELSE counter.count + 1 END,
        resets_at = CASE WHEN counter.resets_at <= at THEN excluded.resets_at ELSE counter.resets_at END
      RETURNING counter.count, counter.resets_at INTO counted, resets;
    counts := counts || counted;
    reset_in_ms := reset_in_ms || ceil(extract(epoch FROM resets - at) * 1000)::integer;
    IF counted > limits[i] THEN
      allowed := false;
    END IF;
  END LOOP;
  IF NOT allowed THEN
    UPDATE rate_limit_counters SET count = count - 1 WHERE key = ANY (keys);
    counts := ARRAY(SELECT counted_before - 1 FROM unnest(counts) WITH ORDINALITY AS c(counted_before, n) ORDER BY n);
  END IF;
  RETURN NEXT;
END
$$;
