// Verifying webhook deliveries on the receiver's side, as the contract documents them (the `Event`
// schema; spec/events.tsp): Standard Webhooks headers `webhook-id`, `webhook-timestamp` and
// `webhook-signature` (or `X-Svc-Signature`, which carries the same value, when `webhook-signature`
// is absent), each signature `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">` keyed with
// the base64 after `whsec_`, several space-separated during a secret rotation (any one may match),
// compared in constant time, the timestamp within 5 minutes of the receiver's clock.
//
// Web Crypto only (`crypto.subtle`, `atob`, `TextEncoder`): the same code runs in Node 22+, Deno,
// Bun, browsers and edge runtimes, which is why verifying is asynchronous. Browsers give
// `crypto.subtle` to secure contexts only (https:// pages, http://localhost): elsewhere verifying
// rejects with a TypeError that says so. Node's request helper, `verifyNodeRequest`, is in
// `@project-builder/client/node`.
//
//   const event = await verifyFetchRequest(env.WEBHOOK_SECRET, request);   // or verifyWebhook(secret, headers, rawBody)
//   switch (event.type) { case "agent_run.succeeded": …; default: /* ignore kinds you do not know */ }
import type { components } from "@project-builder/contract";

/** A delivery's body: one of the contract's events. */
export type WebhookEvent = components["schemas"]["Event"];

/** The default cap on a delivery's body read by `verifyFetchRequest` and `verifyNodeRequest`: 1 MiB. */
export const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

/** How far a delivery's timestamp may be from the receiver's clock by default, either way: 5 minutes. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export type WebhookVerificationReason =
  /** `webhook-id`, `webhook-timestamp` or both signature headers are absent or empty. */
  | "missing_header"
  /** `webhook-timestamp` is not whole Unix seconds. */
  | "invalid_timestamp"
  /** The timestamp is further than the tolerance from the receiver's clock (stale, or in the future). */
  | "timestamp_out_of_tolerance"
  /** No `v1` signature matches: a wrong secret, or a changed body, id or timestamp. */
  | "no_matching_signature"
  /** Genuine, but not a JSON event (object with string `id` and `type`, and a `data` object). */
  | "invalid_body"
  /** The body is longer than the helpers' cap (`maxBodyBytes`). */
  | "body_too_large";

/** A delivery that must not be trusted. Answer it with a 4xx (400), never with 2xx. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** A fetch `Headers`, or a plain object (any header-name case; Node's `IncomingHttpHeaders` is one). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from `now`, either way, in seconds (default 300, as the contract asks). */
  toleranceSeconds?: number;
  /** The receiver's clock: Unix seconds or a Date (default: now). */
  now?: number | Date;
}

export interface VerifyRequestOptions extends VerifyWebhookOptions {
  /** Longest body read, in bytes (default 1 MiB); longer is `body_too_large`. */
  maxBodyBytes?: number;
}

const SECRET_PREFIX = "whsec_";
const encoder = new TextEncoder();

/** The HMAC key of a secret: the base64 after `whsec_` (the prefix is optional, as in the reference libraries). */
function secretKey(secret: string): Uint8Array<ArrayBuffer> {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  let binary = "";
  try {
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) binary = atob(encoded);
  } catch {
    // not decodable (a length base64 cannot have): refused below like any other malformed secret
  }
  if (binary === "") throw new TypeError("A webhook secret is `whsec_` and base64 (not empty).");
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Web Crypto's `subtle`, or a TypeError that says why it is missing and what to do. */
function subtleCrypto(): typeof crypto.subtle {
  const subtle = (globalThis.crypto as typeof crypto | undefined)?.subtle;
  if (subtle) return subtle;
  throw new TypeError(
    "Web Crypto (crypto.subtle) is not available here, so webhook signatures cannot be verified: browsers " +
      "provide it only in secure contexts (https:// pages, or http://localhost). Serve this page over " +
      "HTTPS, or verify deliveries on a server (Node 22+, Deno, Bun and edge runtimes all have it).",
  );
}

/**
 * @internal Checks at once what verifying needs: the secret's form and Web Crypto. A misconfiguration
 * fails loudly, whatever the request.
 */
export function checkSetup(secret: string): void {
  secretKey(secret);
  subtleCrypto();
}

/** `v1,<base64>`'s base64: HMAC-SHA256 of `<id>.<timestamp>.<body>`. */
async function expectedSignature(secret: string, id: string, timestamp: number, body: Uint8Array): Promise<string> {
  const subtle = subtleCrypto();
  const key = await subtle.importKey("raw", secretKey(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix);
  message.set(body, prefix.length);
  const digest = new Uint8Array(await subtle.sign("HMAC", key, message));
  return btoa(String.fromCharCode(...digest));
}

/**
 * Equal strings, in a time that depends on their length only. Signatures are compared as base64
 * text, as the reference libraries do; a signature's length is public.
 */
function equalInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** A fetch `Headers`, from this realm or another (undici's, a framework's): anything with get(). */
function isHeaders(headers: WebhookHeaders): headers is Headers {
  return typeof (headers as { get?: unknown }).get === "function";
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  let value: string | readonly string[] | undefined;
  if (isHeaders(headers)) {
    value = headers.get(name) ?? undefined;
  } else {
    for (const [key, candidate] of Object.entries(headers)) {
      if (key.toLowerCase() === name && candidate !== undefined) value = candidate;
    }
  }
  // Repeated headers (an array from Node): several signatures are space-separated anyway.
  const text = typeof value === "string" ? value : value?.join(" ");
  return text?.trim() ? text.trim() : undefined;
}

function isEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const event = value as Record<string, unknown>;
  return (
    typeof event.id === "string" &&
    typeof event.type === "string" &&
    typeof event.data === "object" &&
    event.data !== null
  );
}

/**
 * Verifies a delivery and resolves with its event, or rejects with `WebhookVerificationError`.
 * `rawBody` must be the body exactly as received (a re-serialized JSON object does not verify). The
 * event's `type` may be a kind newer than this library's contract: ignore kinds you do not know.
 * De-duplicate with `event.id` (the `webhook-id`, the same on every retry of a delivery). A
 * malformed `secret` (not `whsec_` and base64) is a configuration error: it rejects with a TypeError;
 * so does a page without Web Crypto (one that is not a secure context: serve it over HTTPS).
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  checkSetup(secret);
  const id = header(headers, "webhook-id");
  const timestampText = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature") ?? header(headers, "x-svc-signature");
  if (!id || !timestampText || !signatures) {
    const missing = [
      !id && "webhook-id",
      !timestampText && "webhook-timestamp",
      !signatures && "webhook-signature",
    ].filter(Boolean);
    throw new WebhookVerificationError("missing_header", `Missing header: ${missing.join(", ")}.`);
  }

  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  const now =
    options.now instanceof Date
      ? Math.floor(options.now.getTime() / 1000)
      : (options.now ?? Math.floor(Date.now() / 1000));
  const timestamp = /^\d{1,15}$/.test(timestampText) ? Number(timestampText) : NaN;
  if (!Number.isSafeInteger(timestamp))
    throw new WebhookVerificationError("invalid_timestamp", "webhook-timestamp is not whole Unix seconds.");
  if (timestamp < now - tolerance)
    throw new WebhookVerificationError(
      "timestamp_out_of_tolerance",
      `webhook-timestamp is more than ${tolerance} s in the past.`,
    );
  if (timestamp > now + tolerance)
    throw new WebhookVerificationError(
      "timestamp_out_of_tolerance",
      `webhook-timestamp is more than ${tolerance} s in the future.`,
    );

  // Every `v1` entry is compared (no early exit), so timing does not tell which one matched; entries
  // of other versions are ignored, as the standard asks.
  const bytes = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody;
  const expected = await expectedSignature(secret, id, timestamp, bytes);
  let matched = false;
  for (const entry of signatures.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma >= 0 && entry.slice(0, comma) === "v1" && equalInConstantTime(entry.slice(comma + 1), expected))
      matched = true;
  }
  if (!matched) throw new WebhookVerificationError("no_matching_signature", "No signature matches this secret.");

  let event: unknown;
  try {
    event = JSON.parse(
      typeof rawBody === "string" ? rawBody : new TextDecoder("utf-8", { fatal: true }).decode(rawBody),
    );
  } catch {
    throw new WebhookVerificationError("invalid_body", "The body is not JSON.");
  }
  if (!isEvent(event)) throw new WebhookVerificationError("invalid_body", "The body is not an event.");
  return event;
}

/** @internal The helpers' refusal of a body longer than `limit`. */
export function tooLarge(limit: number): WebhookVerificationError {
  return new WebhookVerificationError("body_too_large", `The body is longer than ${limit} bytes.`);
}

/** @internal A `Content-Length` value as a number, when it is one. */
export function declaredLength(value: string | readonly string[] | null | undefined): number | undefined {
  return typeof value === "string" && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** @internal The chunks of a body read, as one array. */
export function concat(chunks: readonly Uint8Array[], length: number): Uint8Array<ArrayBuffer> {
  const body = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Reads a fetch `Request`'s whole raw body (up to `maxBodyBytes`), then verifies it. */
export async function verifyFetchRequest(
  secret: string,
  request: Request,
  options: VerifyRequestOptions = {},
): Promise<WebhookEvent> {
  checkSetup(secret);
  const limit = options.maxBodyBytes ?? WEBHOOK_MAX_BODY_BYTES;
  const declared = declaredLength(request.headers.get("content-length"));
  if (declared !== undefined && declared > limit) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge(limit);
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  if (request.body) {
    const reader = request.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  }
  return verifyWebhook(secret, request.headers, concat(chunks, length), options);
}
