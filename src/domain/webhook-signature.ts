// Webhook signatures, as Standard Webhooks defines them (https://www.standardwebhooks.com):
//   webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">
// keyed with the base64-decoded part of the endpoint secret after `whsec_`. The same value is sent
// as `X-Svc-Signature`. A header may carry several space-separated signatures (secret rotation):
// a delivery is genuine if any `v1` one matches. No HTTP and no storage here.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SECRET_PREFIX = "whsec_";

/** How far a delivery's timestamp may be from the receiver's clock, either way. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

/** A new endpoint secret: `whsec_` and base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** The HMAC key of a secret: the base64 after `whsec_` (the prefix is optional, as in the reference libraries). */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new TypeError("A webhook secret is `whsec_` and base64.");
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0) throw new TypeError("A webhook secret must not be empty.");
  return key;
}

export interface SignInput {
  /** The `webhook-id` header: the event id. */
  id: string;
  /** The `webhook-timestamp` header: Unix seconds of this attempt. */
  timestamp: number;
  /** The raw body, exactly as sent. */
  body: string | Uint8Array;
  secret: string;
}

function digest(key: Buffer, id: string, timestamp: number, body: string | Uint8Array): Buffer {
  return createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();
}

function checkTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new TypeError("A webhook timestamp is whole Unix seconds.");
}

/** The `webhook-signature` value of one delivery attempt: `v1,<base64>`. */
export function signWebhook({ id, timestamp, body, secret }: SignInput): string {
  checkTimestamp(timestamp);
  return `v1,${digest(secretKey(secret), id, timestamp, body).toString("base64")}`;
}

export interface VerifyInput {
  /** The `webhook-id` header. */
  id: string;
  /** The `webhook-timestamp` header, as received. */
  timestamp: string | number;
  /** The raw body, exactly as received (not re-serialized JSON). */
  body: string | Uint8Array;
  /** The `webhook-signature` header: one or more space-separated `<version>,<base64>` entries. */
  signature: string;
  secret: string;
  /** The receiver's clock in Unix seconds; defaults to now. */
  now?: number;
  toleranceSeconds?: number;
}

export type VerifyResult =
  | { ok: true }
  | { ok: false; reason: "invalid_timestamp" | "timestamp_too_old" | "timestamp_too_new" | "no_matching_signature" };

/**
 * Checks a received delivery: the timestamp within the tolerance of `now`, and at least one `v1`
 * signature equal (in constant time) to the one computed from id, timestamp and raw body. Entries
 * of other versions are ignored, as the standard asks.
 */
export function verifyWebhook(input: VerifyInput): VerifyResult {
  const tolerance = input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const timestamp =
    typeof input.timestamp === "number"
      ? input.timestamp
      : /^\d{1,15}$/.test(input.timestamp)
        ? Number(input.timestamp)
        : NaN;
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) return { ok: false, reason: "invalid_timestamp" };
  if (timestamp < now - tolerance) return { ok: false, reason: "timestamp_too_old" };
  if (timestamp > now + tolerance) return { ok: false, reason: "timestamp_too_new" };

  // Compared as base64 text, as the reference libraries do (Node's base64 decoder would skip junk
  // characters). The length of a signature is public; only equal lengths reach the constant-time
  // compare, and every entry is compared (no early exit), so timing does not tell which one matched.
  const expected = Buffer.from(digest(secretKey(input.secret), input.id, timestamp, input.body).toString("base64"));
  let matched = false;
  for (const entry of input.signature.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    const given = Buffer.from(entry.slice(comma + 1));
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched ? { ok: true } : { ok: false, reason: "no_matching_signature" };
}
