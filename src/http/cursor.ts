// Opaque, URL-safe, tamper-evident keyset cursors.
//
// A cursor carries the keyset position of the last row of a page ({created_at, id}) and is bound
// to the list it came from: a digest of the list identity, its filters and sort, and the
// workspace/environment partition. It is signed with HMAC-SHA256 under a server secret.
//
// Wire format (then base64url, no padding):
//   version (1 byte = 1) | mac (16 bytes) | bound digest (12 bytes) | UTF-8 JSON ["<created_at>","<id>"]
// mac = HMAC-SHA256(secret, version | bound digest | body), truncated to 128 bits.
//
// decode() answers, in this order: 'malformed' (not something we could have issued),
// 'tampered' (the signature does not verify under any known secret), 'wrong_list' (a genuine cursor
// of another list, filter set, workspace or environment). The pipeline answers all three with
// 400 invalid_request, param "cursor".
//
// created_at is carried as the exact string the storage layer handed out (creation times are
// stored with millisecond precision, so the string round-trips through a JS Date exactly).
import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";

export interface CursorPosition {
  readonly created_at: string;
  readonly id: string;
}

export type CursorErrorReason = "malformed" | "tampered" | "wrong_list";

export type CursorDecodeResult =
  | { readonly ok: true; readonly position: CursorPosition }
  | { readonly ok: false; readonly reason: CursorErrorReason; readonly param: "cursor"; readonly message: string };

/** A thrown form of a decode failure, for code that prefers exceptions (see `decodeOrThrow`). */
export class CursorError extends Error {
  readonly reason: CursorErrorReason;
  readonly param = "cursor";
  constructor(reason: CursorErrorReason, message: string) {
    super(message);
    this.name = "CursorError";
    this.reason = reason;
  }
}

/** What a cursor is bound to. Put everything that changes the set or order of rows in `filters`. */
export interface ListIdentity {
  /** The list, e.g. "projects" or "deployments:prj_123". */
  readonly list: string;
  readonly workspaceId: string;
  readonly environment: string;
  /** Query filters and sort; undefined/null values are ignored, key order does not matter. */
  readonly filters?: Readonly<Record<string, unknown>>;
}

/** Digest (base64url SHA-256) of a list identity: the `bound` argument of encode/decode. */
export function listBound(identity: ListIdentity): string {
  const filters: Record<string, unknown> = {};
  for (const k of Object.keys(identity.filters ?? {}).sort()) {
    const v = identity.filters![k];
    if (v !== undefined && v !== null) filters[k] = v;
  }
  const canonical = JSON.stringify([identity.list, identity.workspaceId, identity.environment, canonicalize(filters)]);
  return remembered(boundsByCanonical, canonical, () => createHash("sha256").update(canonical).digest("base64url"));
}

// A list is paged by the same few callers with the same few filters, request after request: its
// digests are remembered rather than hashed again for every page. Bounded, so a caller's many
// filter values cannot grow them; when full they start over.
const MEMO_LIMIT = 10_000;
const boundsByCanonical = new Map<string, string>();
const boundDigests = new Map<string, Buffer>();

function remembered<T>(memo: Map<string, T>, key: string, make: () => T): T {
  let value = memo.get(key);
  if (value === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    value = make();
    memo.set(key, value);
  }
  return value;
}

function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalize);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = canonicalize((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

export interface CursorCodec {
  encode(position: CursorPosition, bound: string): string;
  decode(cursor: string, expectedBound: string): CursorDecodeResult;
  /** decode(), throwing CursorError on failure. */
  decodeOrThrow(cursor: string, expectedBound: string): CursorPosition;
}

export interface CursorCodecOptions {
  /** Signing secret (CURSOR_SECRET, or the one shared through the database); at least 16 bytes. */
  readonly secret: string | Uint8Array;
  /** Older secrets still accepted when decoding, for rotation without breaking open pagination. */
  readonly previousSecrets?: ReadonlyArray<string | Uint8Array>;
}

const VERSION = 1;
const MAC_LEN = 16;
const BOUND_LEN = 12;
const HEADER_LEN = 1 + MAC_LEN + BOUND_LEN;
/** Longest cursor decode() will look at; anything longer is malformed without further work. */
export const MAX_CURSOR_LENGTH = 512;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The secret as a KeyObject, made once: an HMAC keyed with one skips importing raw key bytes on every cursor. */
function toKey(secret: string | Uint8Array): KeyObject {
  const key = typeof secret === "string" ? Buffer.from(secret, "utf8") : Buffer.from(secret);
  if (key.length < 16) throw new Error("cursor secret must be at least 16 bytes");
  return createSecretKey(key);
}

function boundDigest(bound: string): Buffer {
  return remembered(boundDigests, bound, () => createHash("sha256").update(bound).digest().subarray(0, BOUND_LEN));
}

function mac(key: KeyObject, signed: Buffer): Buffer {
  return createHmac("sha256", key).update(signed).digest().subarray(0, MAC_LEN);
}

export function createCursorCodec(options: CursorCodecOptions): CursorCodec {
  const signKey = toKey(options.secret);
  const verifyKeys = [signKey, ...(options.previousSecrets ?? []).map(toKey)];

  function encode(position: CursorPosition, bound: string): string {
    if (typeof position.created_at !== "string" || typeof position.id !== "string") {
      throw new TypeError("cursor position needs string created_at and id");
    }
    const body = Buffer.from(JSON.stringify([position.created_at, position.id]), "utf8");
    const signed = Buffer.concat([Buffer.of(VERSION), boundDigest(bound), body]);
    const tag = mac(signKey, signed);
    return Buffer.concat([Buffer.of(VERSION), tag, signed.subarray(1)]).toString("base64url");
  }

  function fail(reason: CursorErrorReason): CursorDecodeResult {
    const message =
      reason === "wrong_list"
        ? "The cursor belongs to a different list or filter set; start again without a cursor."
        : "The cursor is not valid; pass the next_cursor value of the previous page unchanged.";
    return { ok: false, reason, param: "cursor", message };
  }

  function decode(cursor: string, expectedBound: string): CursorDecodeResult {
    if (
      typeof cursor !== "string" ||
      cursor.length === 0 ||
      cursor.length > MAX_CURSOR_LENGTH ||
      !BASE64URL.test(cursor)
    ) {
      return fail("malformed");
    }
    const raw = Buffer.from(cursor, "base64url");
    // Reject non-canonical encodings (e.g. stray trailing bits), so one cursor has one spelling.
    if (raw.length <= HEADER_LEN || raw.toString("base64url") !== cursor || raw[0] !== VERSION)
      return fail("malformed");
    const tag = raw.subarray(1, 1 + MAC_LEN);
    const signed = Buffer.concat([raw.subarray(0, 1), raw.subarray(1 + MAC_LEN)]);
    if (!verifyKeys.some((key) => timingSafeEqual(mac(key, signed), tag))) return fail("tampered");
    if (!timingSafeEqual(raw.subarray(1 + MAC_LEN, HEADER_LEN), boundDigest(expectedBound))) return fail("wrong_list");
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.subarray(HEADER_LEN).toString("utf8"));
    } catch {
      return fail("malformed");
    }
    if (
      !Array.isArray(parsed) ||
      parsed.length !== 2 ||
      typeof parsed[0] !== "string" ||
      typeof parsed[1] !== "string"
    ) {
      return fail("malformed");
    }
    return { ok: true, position: { created_at: parsed[0], id: parsed[1] } };
  }

  function decodeOrThrow(cursor: string, expectedBound: string): CursorPosition {
    const r = decode(cursor, expectedBound);
    if (!r.ok) throw new CursorError(r.reason, r.message);
    return r.position;
  }

  return { encode, decode, decodeOrThrow };
}
