// Idempotency keys with Stripe's semantics, over the storage layer's `idempotency_keys` table.
// (The pipeline's step that uses them: idempotent-call.ts; the housekeeping purge: domain/idempotency-keys.ts.)
//
// Flow for a creating POST that carries `Idempotency-Key`:
//   const r = await begin(db, { workspaceId, environment, key, method, path, requestHash });
//   'new'      → run the handler (renew(db, r.lease) every lockTimeout/3 while it runs), then
//                complete(tx, r.lease, { status, headers, body }) in the transaction of its effect,
//                or abandon(db, r.lease) when nothing is to be stored
//   'replay'   → answer r.status / r.headers / r.body with `Idempotent-Replayed: true`, run nothing
//   'in_use'   → 409 idempotency_key_in_use (the first request with this key is still running)
//   'mismatch' → 422 idempotency_key_reused (same key, different method, path or body)
//
// Decisions:
// - What is stored: every response the handler produced with a status below 500 (2xx and 4xx).
//   Like Stripe, a request that began executing has a result that a retry must see, including
//   "404 project not found" or "409 conflict". A 5xx or a thrown handler releases the key
//   (`abandon`), so the client may retry with the same key; this is what the contract promises
//   ("Server errors (5xx) are not stored"). Responses produced before `begin` (401, 400 from
//   validation, 429) never reach this module and are therefore never stored.
// - Keys are scoped to (workspace, environment): the table's primary key. One key used in a
//   workspace's live and test partitions names two unrelated requests.
// - A row carries its own lease in `expires_at`: while in_progress it is created_at + lock timeout
//   (60 s by default), so the key of a crashed replica frees itself; once completed it is
//   created_at + 24 h, the replay window. Any row with expires_at <= now is treated as absent by
//   `begin` (deleted first, then re-inserted) and removed by housekeeping (`purgeExpiredIdempotencyKeys`,
//   src/domain/idempotency-keys.ts).
// - Atomicity: `begin` inserts with ON CONFLICT DO NOTHING on the primary key; exactly one of any
//   number of concurrent requests with one key gets 'new'. complete/abandon are fenced on the
//   lease (created_at + request hash) so a request whose lease ran out and was taken over cannot
//   overwrite or release its successor's row.
// - A streamed body (a multipart upload) is fingerprinted as it is read, so its hash is unknown at
//   `begin` (requestHash null): the claim is taken with an empty hash, `complete` records the real
//   one, and a replay candidate carries the stored hash for the caller to compare once it has read
//   the body.
// - Long requests keep their claim: `renew` extends an in_progress row's lease; a crashed
//   replica's claim still frees itself one lock timeout after its last renewal.
// - Time is the application's clock (injectable `now`), written explicitly into created_at and
//   expires_at with millisecond precision, so the fence compares equal values on both drivers.
import { createHash } from "node:crypto";
import { and, eq, lte } from "drizzle-orm";
import type { AnyPgDatabase } from "../storage/index.ts";
import { placeholder, placeholderFor, prepared, preparedSql } from "../storage/prepared.ts";
import { idempotencyKeys } from "../storage/schema.ts";
import type { Environment } from "../storage/schema.ts";

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_LOCK_TIMEOUT_MS = 60 * 1000;
/** Header set on replayed responses. */
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";

export interface IdempotencyScope {
  readonly workspaceId: string;
  readonly environment: Environment;
  readonly key: string;
}

export interface BeginInput extends IdempotencyScope {
  readonly method: string;
  /** The concrete request path (e.g. /v1/projects/prj_1/runs), not the route template. */
  readonly path: string;
  /** `requestHash({ method, path, body })`, or null when the body is streamed and not yet read. */
  readonly requestHash: string | null;
}

/** Proof that this request holds the key; pass it to renew/complete/abandon. */
export interface IdempotencyLease extends IdempotencyScope {
  readonly requestHash: string;
  readonly startedAt: Date;
}

export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

export type BeginResult =
  | { readonly kind: "new"; readonly lease: IdempotencyLease }
  /** The stored answer; `requestHash` is the stored request's, to compare when begin had none. */
  | ({ readonly kind: "replay"; readonly requestHash: string } & StoredResponse)
  | { readonly kind: "in_use" }
  | { readonly kind: "mismatch" };

export interface IdempotencyOptions {
  /** Clock (default Date.now). */
  readonly now?: () => number;
  /** Replay window (default 24 h). */
  readonly windowMs?: number;
  /** How long an in_progress row holds the key before it counts as abandoned (default 60 s). */
  readonly lockTimeoutMs?: number;
}

function settings(options: IdempotencyOptions | undefined) {
  return {
    now: options?.now ?? Date.now,
    windowMs: options?.windowMs ?? IDEMPOTENCY_WINDOW_MS,
    lockTimeoutMs: options?.lockTimeoutMs ?? IDEMPOTENCY_LOCK_TIMEOUT_MS,
  };
}

function scopeWhere(s: IdempotencyScope) {
  return and(
    eq(idempotencyKeys.workspaceId, s.workspaceId),
    eq(idempotencyKeys.environment, s.environment),
    eq(idempotencyKeys.key, s.key),
  );
}

function leaseWhere(lease: IdempotencyLease) {
  return and(
    scopeWhere(lease),
    eq(idempotencyKeys.state, "in_progress"),
    eq(idempotencyKeys.createdAt, lease.startedAt),
    eq(idempotencyKeys.requestHash, lease.requestHash),
  );
}

/**
 * Claims `key` for this request, or says why not. Safe under any concurrency: of N simultaneous
 * calls with one key, exactly one gets 'new'.
 */
export async function begin(db: AnyPgDatabase, input: BeginInput, options?: IdempotencyOptions): Promise<BeginResult> {
  const cfg = settings(options);
  const method = input.method.toUpperCase();
  // A few rounds at most: a row can vanish between our INSERT and SELECT (its owner abandoned it,
  // or it expired), in which case we simply try to claim the key again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const nowDate = new Date(cfg.now());
    const claim = { method, path: input.path, requestHash: input.requestHash ?? "", createdAt: nowDate };
    const { rows: inserted } = await claiming(db).execute({
      ...claim,
      workspaceId: input.workspaceId,
      environment: input.environment,
      key: input.key,
      expiresAt: new Date(nowDate.getTime() + cfg.lockTimeoutMs),
    });
    if (inserted.length === 1) {
      return {
        kind: "new",
        lease: {
          workspaceId: input.workspaceId,
          environment: input.environment,
          key: input.key,
          requestHash: claim.requestHash,
          startedAt: nowDate,
        },
      };
    }
    const [row] = await db.select().from(idempotencyKeys).where(scopeWhere(input)).limit(1);
    if (row === undefined || row.expiresAt.getTime() <= cfg.now()) continue;
    const hashesKnown = input.requestHash !== null && row.requestHash !== "";
    if (row.method !== method || row.path !== input.path || (hashesKnown && row.requestHash !== input.requestHash)) {
      return { kind: "mismatch" };
    }
    if (row.state !== "completed" || row.responseStatus === null) return { kind: "in_use" };
    return {
      kind: "replay",
      requestHash: row.requestHash,
      status: row.responseStatus,
      headers: row.responseHeaders ?? {},
      body: row.responseBody ?? null,
    };
  }
  // The key keeps flipping between owners; tell the client to retry later.
  return { kind: "in_use" };
}

/**
 * Stores the response for replay and starts the 24-hour window. Returns false when the lease was
 * lost (it expired and another request took the key over, or the row was purged).
 */
export async function complete(
  db: AnyPgDatabase,
  lease: IdempotencyLease,
  response: StoredResponse,
  options?: IdempotencyOptions & { readonly requestHash?: string },
): Promise<boolean> {
  const cfg = settings(options);
  const updated = await completing(db).execute({
    ...leaseParams(lease),
    newRequestHash: options?.requestHash ?? lease.requestHash,
    responseStatus: response.status,
    responseHeaders: { ...response.headers },
    responseBody: response.body === undefined ? null : response.body,
    expiresAt: new Date(lease.startedAt.getTime() + cfg.windowMs),
  });
  return updated.length === 1;
}

// The two statements every idempotent request sends, prepared (see storage/prepared.ts).

// One statement: a new key is inserted; an expired row (replay window over, or the lease of a
// crashed request ran out) is taken over as if absent; a live row is left alone.
const claiming = preparedSql("idempotency_claim", (db: AnyPgDatabase) => {
  const t = idempotencyKeys;
  const claim = {
    method: placeholderFor("method", t.method),
    path: placeholderFor("path", t.path),
    requestHash: placeholderFor("requestHash", t.requestHash),
    state: "in_progress" as const,
    responseStatus: null,
    responseHeaders: null,
    responseBody: null,
    createdAt: placeholderFor("createdAt", t.createdAt),
    expiresAt: placeholderFor("expiresAt", t.expiresAt),
  };
  return db
    .insert(t)
    .values({
      workspaceId: placeholder("workspaceId"),
      environment: placeholder("environment"),
      key: placeholder("key"),
      ...claim,
    })
    .onConflictDoUpdate({
      target: [t.workspaceId, t.environment, t.key],
      set: claim,
      setWhere: lte(t.expiresAt, placeholderFor("createdAt", t.createdAt)),
    })
    .returning({ key: t.key })
    .getSQL();
});

const completing = prepared((db: AnyPgDatabase) => {
  const t = idempotencyKeys;
  return db
    .update(t)
    .set({
      requestHash: placeholderFor("newRequestHash", t.requestHash),
      state: "completed",
      responseStatus: placeholderFor("responseStatus", t.responseStatus),
      responseHeaders: placeholderFor("responseHeaders", t.responseHeaders),
      responseBody: placeholderFor("responseBody", t.responseBody),
      expiresAt: placeholderFor("expiresAt", t.expiresAt),
    })
    .where(
      and(
        eq(t.workspaceId, placeholder("workspaceId")),
        eq(t.environment, placeholder("environment")),
        eq(t.key, placeholder("key")),
        eq(t.state, "in_progress"),
        eq(t.createdAt, placeholderFor("startedAt", t.createdAt)),
        eq(t.requestHash, placeholder("requestHash")),
      ),
    )
    .returning({ key: t.key })
    .prepare("idempotency_complete");
});

const leaseParams = (lease: IdempotencyLease) => ({
  workspaceId: lease.workspaceId,
  environment: lease.environment,
  key: lease.key,
  requestHash: lease.requestHash,
  startedAt: lease.startedAt,
});

/**
 * Extends the claim of a request still running by one lock timeout from now. Returns false when the
 * lease was lost or the request has completed meanwhile.
 */
export async function renew(
  db: AnyPgDatabase,
  lease: IdempotencyLease,
  options?: IdempotencyOptions,
): Promise<boolean> {
  const cfg = settings(options);
  const updated = await db
    .update(idempotencyKeys)
    .set({ expiresAt: new Date(cfg.now() + cfg.lockTimeoutMs) })
    .where(leaseWhere(lease))
    .returning({ key: idempotencyKeys.key });
  return updated.length === 1;
}

/** Releases the key (the handler failed with 5xx or threw) so the client can retry with it. */
export async function abandon(db: AnyPgDatabase, lease: IdempotencyLease): Promise<boolean> {
  const deleted = await db.delete(idempotencyKeys).where(leaseWhere(lease)).returning({ key: idempotencyKeys.key });
  return deleted.length === 1;
}

// ---------------------------------------------------------------------------------------------
// Request fingerprint

/** JSON with object keys sorted at every depth; undefined members dropped as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeys(v)));
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function")
      return sortKeys((value as { toJSON(): unknown }).toJSON());
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined && typeof v !== "function") out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/**
 * SHA-256 (hex) of method, path and body. A parsed JSON body is hashed in canonical form, so key
 * order and whitespace do not make two equal requests differ; raw bytes (Buffer/Uint8Array, e.g. a
 * multipart upload) are hashed as they are; no body hashes as empty.
 */
export function requestHash(input: {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}): string {
  const h = createHash("sha256");
  h.update(input.method.toUpperCase()).update("\n").update(input.path).update("\n");
  const body = input.body;
  if (body instanceof Uint8Array) h.update("b:").update(body);
  else if (body !== undefined && body !== null) h.update("j:").update(canonicalJson(body));
  return h.digest("hex");
}
