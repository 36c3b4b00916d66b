// Verifying webhook deliveries on the receiver's side, as the contract documents them (the `Event`
// schema; spec/events.tsp): Standard Webhooks headers `webhook-id`, `webhook-timestamp` and
// `webhook-signature` (or `X-Svc-Signature`, which carries the same value, when `webhook-signature`
// is absent), each signature `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">` keyed with
// the base64 after `whsec_`, several space-separated during a secret rotation (any one may match),
// compared in constant time, the timestamp within 5 minutes of the receiver's clock. The signing
// core is the server's own (src/domain/webhook-signature.ts: node:crypto only).
//
//   const event = await verifyNodeRequest(process.env.WEBHOOK_SECRET!, req);   // or verifyFetchRequest
//   switch (event.type) { case "agent_run.succeeded": …; default: /* ignore kinds you do not know */ }
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { components } from "../../generated/schema.d.ts";
import { secretKey, verifyWebhook as verifySignature, WEBHOOK_TOLERANCE_SECONDS } from "../domain/webhook-signature.ts";

/** A delivery's body: one of the contract's events. */
export type WebhookEvent = components["schemas"]["Event"];

/** The default cap on a delivery's body read by `verifyNodeRequest` and `verifyFetchRequest`: 1 MiB. */
export const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

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

/** A plain object (any header-name case), a fetch `Headers`, or Node's `IncomingHttpHeaders`. */
export type WebhookHeaders = Headers | IncomingHttpHeaders | Readonly<Record<string, string | readonly string[] | undefined>>;

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
      if (key.toLowerCase() === name && candidate !== undefined) value = candidate as string | readonly string[];
    }
  }
  // Repeated headers (an array from Node): several signatures are space-separated anyway.
  const text = typeof value === "string" ? value : value?.join(" ");
  return text?.trim() ? text.trim() : undefined;
}

function isEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const event = value as Record<string, unknown>;
  return typeof event.id === "string" && typeof event.type === "string" && typeof event.data === "object" && event.data !== null;
}

/**
 * Verifies a delivery and returns its event, or throws `WebhookVerificationError`. `rawBody` must be
 * the body exactly as received (a re-serialized JSON object does not verify). The event's `type`
 * may be a kind newer than this library's contract: ignore kinds you do not know. De-duplicate
 * with `event.id` (the `webhook-id`, the same on every retry of a delivery). A malformed `secret`
 * (not `whsec_` and base64) is a configuration error: it throws a TypeError.
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, rawBody: string | Uint8Array, options: VerifyWebhookOptions = {}): WebhookEvent {
  secretKey(secret); // a misconfigured secret fails loudly, whatever the request
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signature = header(headers, "webhook-signature") ?? header(headers, "x-svc-signature");
  const missing = [!id && "webhook-id", !timestamp && "webhook-timestamp", !signature && "webhook-signature"].filter(Boolean);
  if (!id || !timestamp || !signature) throw new WebhookVerificationError("missing_header", `Missing header: ${missing.join(", ")}.`);

  const toleranceSeconds = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  const now = options.now instanceof Date ? Math.floor(options.now.getTime() / 1000) : options.now;
  const result = verifySignature({ id, timestamp, body: rawBody, signature, secret, toleranceSeconds, ...(now === undefined ? {} : { now }) });
  if (!result.ok) {
    switch (result.reason) {
      case "invalid_timestamp":
        throw new WebhookVerificationError("invalid_timestamp", "webhook-timestamp is not whole Unix seconds.");
      case "timestamp_too_old":
        throw new WebhookVerificationError("timestamp_out_of_tolerance", `webhook-timestamp is more than ${toleranceSeconds} s in the past.`);
      case "timestamp_too_new":
        throw new WebhookVerificationError("timestamp_out_of_tolerance", `webhook-timestamp is more than ${toleranceSeconds} s in the future.`);
      case "no_matching_signature":
        throw new WebhookVerificationError("no_matching_signature", "No signature matches this secret.");
    }
  }

  let event: unknown;
  try {
    event = JSON.parse(typeof rawBody === "string" ? rawBody : new TextDecoder("utf-8", { fatal: true }).decode(rawBody));
  } catch {
    throw new WebhookVerificationError("invalid_body", "The body is not JSON.");
  }
  if (!isEvent(event)) throw new WebhookVerificationError("invalid_body", "The body is not an event.");
  return event;
}

function tooLarge(limit: number): WebhookVerificationError {
  return new WebhookVerificationError("body_too_large", `The body is longer than ${limit} bytes.`);
}

function declaredLength(value: string | null | undefined): number | undefined {
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Reads a Node request's whole raw body (up to `maxBodyBytes`), then verifies it. The body must not have been read already. */
export async function verifyNodeRequest(secret: string, req: IncomingMessage, options: VerifyRequestOptions = {}): Promise<WebhookEvent> {
  secretKey(secret);
  const limit = options.maxBodyBytes ?? WEBHOOK_MAX_BODY_BYTES;
  if (req.readableEnded) throw new TypeError("The request's body was already read (a body parser ran first?): verify the raw body with verifyWebhook.");
  const body = await new Promise<Buffer>((resolve, reject) => {
    const declared = declaredLength(req.headers["content-length"]);
    if (declared !== undefined && declared > limit) {
      req.resume(); // discard it, so the connection can carry the answer
      return reject(tooLarge(limit));
    }
    const chunks: Buffer[] = [];
    let length = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) {
        cleanup();
        req.resume();
        return reject(tooLarge(limit));
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, length));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(new Error("The request closed before its body was read."));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
  return verifyWebhook(secret, req.headers, body, options);
}

/** Reads a fetch `Request`'s whole raw body (up to `maxBodyBytes`), then verifies it. */
export async function verifyFetchRequest(secret: string, request: Request, options: VerifyRequestOptions = {}): Promise<WebhookEvent> {
  secretKey(secret);
  const limit = options.maxBodyBytes ?? WEBHOOK_MAX_BODY_BYTES;
  const declared = declaredLength(request.headers.get("content-length"));
  if (declared !== undefined && declared > limit) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge(limit);
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  if (request.body) {
    const reader = request.body.getReader();
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
  return verifyWebhook(secret, request.headers, Buffer.concat(chunks, length), options);
}
