-- Ids made inside a statement (a delivery per subscribed endpoint, src/domain/events.ts) in the same
-- format as every other id (src/storage/ids.ts): a prefix and 24 base62 characters. Each character
-- comes from two bytes of a SHA-512 of two random UUIDs (244 random bits), so the 62 characters are
-- equally likely but for 2 in 65,536.
CREATE OR REPLACE FUNCTION new_id(prefix text) RETURNS text LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT prefix || '_' || string_agg(
    substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
           ((get_byte(r.h, 2 * i) * 256 + get_byte(r.h, 2 * i + 1)) % 62) + 1, 1),
    '' ORDER BY i)
  FROM (SELECT sha512(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())) AS h) AS r,
       generate_series(0, 23) AS i
$$;
