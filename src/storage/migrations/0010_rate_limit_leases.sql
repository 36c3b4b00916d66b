-- Rate-limit leases (src/http/rate-limit/leases.ts): a replica takes up to `requests` requests of a
-- key at a time, as many as every window has room for, and makes them from memory. Same counters
-- and the same locking as rate_limit_consume (migration 0006), which the previous release still
-- calls during a rolling deploy and a later migration drops. CREATE OR REPLACE: applying it again
-- changes nothing.
CREATE OR REPLACE FUNCTION rate_limit_take(keys text[], limits integer[], durations_ms integer[], requests integer)
RETURNS TABLE (granted integer, counts integer[], reset_in_ms integer[])
LANGUAGE plpgsql AS $$
DECLARE
  at timestamptz := clock_timestamp();
  counted integer;
  resets timestamptz;
  room integer := greatest(requests, 0);
BEGIN
  -- Counters need not survive a crash (a limit briefly lenient after one is harmless): the commit
  -- does not wait for the WAL to reach disk, which under one hot key bounds the rate.
  PERFORM set_config('synchronous_commit', 'off', true);
  counts := '{}';
  reset_in_ms := '{}';
  -- Every window is charged all the requests asked for (one write each, the common case), and what
  -- a full window cannot take is given back to all of them below.
  FOR i IN 1 .. coalesce(array_length(keys, 1), 0) LOOP
    INSERT INTO rate_limit_counters AS counter (key, count, resets_at)
      VALUES (keys[i], requests, at + durations_ms[i] * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN counter.resets_at <= at THEN excluded.count ELSE counter.count + excluded.count END,
        resets_at = CASE WHEN counter.resets_at <= at THEN excluded.resets_at ELSE counter.resets_at END
      RETURNING counter.count, counter.resets_at INTO counted, resets;
    counts := counts || counted;
    reset_in_ms := reset_in_ms || ceil(extract(epoch FROM resets - at) * 1000)::integer;
    room := least(room, requests - greatest(0, counted - limits[i]));
  END LOOP;
  granted := greatest(room, 0);
  IF granted < requests THEN
    UPDATE rate_limit_counters SET count = count - (requests - granted) WHERE key = ANY (keys);
    counts := ARRAY(SELECT c - (requests - granted) FROM unnest(counts) WITH ORDINALITY AS t(c, n) ORDER BY n);
  END IF;
  RETURN NEXT;
END
$$;
