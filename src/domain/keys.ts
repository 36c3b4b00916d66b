// API keys: `svc_live_…` / `svc_test_…` bearer secrets, each bound to one workspace and one of its
// two partitions (live or test).
//
// - A secret is the prefix, 40 random base62 characters (~238 bits) and a 6-character checksum: an
//   HMAC of the rest under the deployment's credential secret (`server_secrets`, shared by every
//   replica and by `pbs`). As GitHub's tokens carry a checksum, so that a forged key is told in
//   memory (http/key-screen.ts): a flood of random keys costs no database lookup, and no limit per
//   address has to stand between a valid key and its lookup. A random guess passes the checksum
//   once in 62⁶ (~5.7 × 10¹⁰) and then meets the lookup, which refuses it. Keys a database holds
//   without a checksum (40 random characters, nothing more) stay valid: the screen knows their hashes.
// - Only the SHA-256 of a secret is stored. A secret has ~238 random bits, so a fast hash is enough
//   (no salt or slow KDF: nothing to brute-force), and the hash is a unique index, so authentication
//   is one indexed lookup.
// - authenticate() hashes and looks up every presented string, whatever its shape: no early return
//   on a malformed prefix tells a caller how far its guess got. The screen in front of it refuses
//   early only what fails a keyed checksum, which tells a guesser nothing it can use.
// - Lookups here always read the database; the HTTP pipeline caches their results
//   (http/principal-cache.ts) and forgets them the moment the database announces a change.
// - last_used_at is approximate: written at most once a minute per key, not on every request.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { and, desc, eq, getTableColumns, gte, isNull } from "drizzle-orm";
import type { Queryable } from "../storage/index.ts";
import { sharedSecret } from "../storage/secrets.ts";
import type { SchemaApiKey, SchemaScope } from "../../generated/schema.d.ts";
import { newId, randomBase62 } from "../storage/ids.ts";
import { apiKeys, environments, workspaces, type ApiKey, type Environment, type Workspace } from "../storage/schema.ts";
import { InvalidInputError } from "./errors.ts";
import { iso, isoOrNull } from "./partition.ts";
import { recordLastUse } from "./last-use.ts";

/** The scopes of the service description (section 5), as the contract's `Scope` lists them; `*` grants all of them. */
export type Scope = SchemaScope;

/**
 * What each scope lets its holder do, in words, for people choosing a key's scopes (the console) or
 * granting them to an application (the consent page): one wording, wherever a person reads it. One
 * entry for each of the contract's scopes and no other: the type fails to compile when they part.
 */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  "projects:read": "See your projects and their agent runs",
  "projects:write": "Create, change and delete projects",
  "deployments:read": "See deployments",
  "deployments:write": "Deploy projects and roll deployments back",
  "agents:run": "Start and cancel agent runs, which use your credits",
  "files:read": "List and download project files",
  "files:write": "Upload and delete project files",
  "billing:read": "See usage and invoices",
  "webhooks:read": "See webhook configurations and events",
  "webhooks:write": "Create, change and delete webhooks",
  "*": "Full access: everything the API allows in this workspace, including what is added later",
};

/** Every scope, in the order people are shown them (`*` last). */
export const scopes = Object.keys(SCOPE_DESCRIPTIONS) as readonly Scope[];

/** The expiry choices of workspace settings, plus `none`. An explicit time is also accepted. */
export const expiryChoices = ["30d", "90d", "1y", "none"] as const;
export type ExpiryChoice = (typeof expiryChoices)[number];

/** Random characters after `svc_live_` / `svc_test_`: 40 base62 characters, ~238 bits. */
export const SECRET_RANDOM_LENGTH = 40;
/** Characters of the checksum that ends a secret. */
export const CHECKSUM_LENGTH = 6;
/** The name, in `server_secrets`, of the secret that keys the checksums. */
export const CREDENTIAL_SECRET = "credentials";
const CHECKSUMMED_KEY = /^svc_(?:live|test)_[0-9A-Za-z]{46}$/;
const KEY_WITHOUT_CHECKSUM = /^svc_(?:live|test)_[0-9A-Za-z]{40}$/;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** `svc_live_` plus this many characters are kept in clear, to recognise a key in lists. */
const DISPLAY_RANDOM_CHARS = 4;

/** A key as everything outside this module sees it: without its hash. */
export type ApiKeyRecord = Omit<ApiKey, "secretHash">;

/**
 * Who is calling: a valid key and its workspace. An OAuth access token authenticates as a principal
 * too ("used exactly like an API key"): its `key` describes the token (its grant's id, live data, the
 * scopes it may use now) and `client` names the application, whose id the audit log records.
 */
export interface Principal {
  readonly key: ApiKeyRecord;
  readonly workspace: Workspace;
  readonly client?: { readonly id: string; readonly name: string };
}

/** Why a secret was refused. Callers answer `revoked` like `invalid`; the distinction is for logs. */
export type AuthFailure = "invalid" | "revoked" | "expired";

/** A refused secret; for a known key (revoked, expired), whose it is, so the attempt can be audited. */
export interface Refusal {
  readonly refused: AuthFailure;
  readonly keyId?: string;
  readonly workspaceId?: string;
  /** For an OAuth token: its application. */
  readonly clientId?: string;
}

export interface NewApiKey {
  readonly workspaceId: string;
  readonly name: string;
  readonly environment?: Environment;
  /** Defaults to `["*"]`. */
  readonly scopes?: readonly string[];
  /** Defaults to `none`. */
  readonly expires?: ExpiryChoice | Date;
  /** Who creates it: a member's user id, or `pbs`. */
  readonly createdBy?: string;
}

export interface CreatedApiKey {
  readonly key: ApiKeyRecord;
  /** The only time the secret exists outside its owner's hands: show it once, store it nowhere. */
  readonly secret: string;
}

const { secretHash: _secretHash, ...keyColumns } = getTableColumns(apiKeys);

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** `body` followed by its checksum under `credentialSecret`: CHECKSUM_LENGTH base62 characters of an HMAC-SHA256. */
export function withChecksum(body: string, credentialSecret: string): string {
  let value = createHmac("sha256", credentialSecret).update(body, "utf8").digest().readBigUInt64BE(0);
  let checksum = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++, value /= 62n) checksum = BASE62[Number(value % 62n)] + checksum;
  return body + checksum;
}

/** Whether `secret` is shaped as a key with a checksum and its checksum holds: told in memory. */
export function keyChecksumHolds(secret: string, credentialSecret: string): boolean {
  if (!CHECKSUMMED_KEY.test(secret)) return false;
  const expected = withChecksum(secret.slice(0, -CHECKSUM_LENGTH), credentialSecret);
  return timingSafeEqual(Buffer.from(secret), Buffer.from(expected));
}

/** Whether `secret` is shaped as a key without a checksum (which only a lookup can tell from a forged one). */
export function isKeyWithoutChecksum(secret: string): boolean {
  return KEY_WITHOUT_CHECKSUM.test(secret);
}

/**
 * The hashes of the keys created at or after `since` (all keys when null), for the screen's set of
 * keys without a checksum: which keys have none, the database cannot tell, so it takes them all.
 */
export async function keyHashesSince(db: Queryable, since: Date | null): Promise<string[]> {
  const rows = await db
    .select({ hash: apiKeys.secretHash })
    .from(apiKeys)
    .where(since ? gte(apiKeys.createdAt, since) : undefined);
  return rows.map((row) => row.hash);
}

/** The expiry time of a choice made at `now`; null for `none`. */
export function expiryTime(expires: ExpiryChoice | Date, now: Date): Date | null {
  if (expires instanceof Date) return expires;
  const at = new Date(now);
  switch (expires) {
    case "30d":
      at.setUTCDate(at.getUTCDate() + 30);
      return at;
    case "90d":
      at.setUTCDate(at.getUTCDate() + 90);
      return at;
    case "1y":
      at.setUTCFullYear(at.getUTCFullYear() + 1);
      return at;
    case "none":
      return null;
  }
}

export async function createApiKey(db: Queryable, input: NewApiKey, now = new Date()): Promise<CreatedApiKey> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100)
    throw new InvalidInputError("the key name must be 1–100 characters", "name");
  const environment = input.environment ?? "live";
  if (!environments.includes(environment))
    throw new InvalidInputError("the environment must be live or test", "environment");
  const expiresAt = expiryTime(input.expires ?? "none", now);
  if (expiresAt && !(expiresAt.getTime() > now.getTime())) {
    throw new InvalidInputError("the expiry must be a valid time in the future", "expires_at");
  }
  const prefix = `svc_${environment}_`;
  const secret = withChecksum(prefix + randomBase62(SECRET_RANDOM_LENGTH), await sharedSecret(db, CREDENTIAL_SECRET));
  const [key] = await db
    .insert(apiKeys)
    .values({
      id: newId("key"),
      workspaceId: input.workspaceId,
      name,
      environment,
      scopes: validScopes(input.scopes ?? ["*"]),
      secretHash: hashSecret(secret),
      displayPrefix: secret.slice(0, prefix.length + DISPLAY_RANDOM_CHARS),
      last4: secret.slice(-4),
      createdAt: now,
      expiresAt,
      createdBy: input.createdBy ?? null,
    })
    .returning(keyColumns);
  return { key: key!, secret };
}

/** Checks scope names against the description's list; `*` absorbs the others. */
export function validScopes(requested: readonly string[]): Scope[] {
  const unique = [...new Set(requested.map((scope) => scope.trim()).filter(Boolean))];
  if (unique.length === 0) throw new InvalidInputError("a key needs at least one scope", "scopes");
  const unknown = unique.filter((scope) => !(scopes as readonly string[]).includes(scope));
  if (unknown.length > 0) {
    throw new InvalidInputError(`unknown scope ${unknown.join(", ")}; known scopes: ${scopes.join(", ")}`, "scopes");
  }
  return unique.includes("*") ? ["*"] : (unique as Scope[]);
}

/** Whether the key may do what `scope` permits. */
export function grants(key: Pick<ApiKeyRecord, "scopes">, scope: string): boolean {
  return key.scopes.includes("*") || key.scopes.includes(scope);
}

/** The key and workspace of a presented secret, or why it is refused. */
export async function authenticate(db: Queryable, secret: string, now = new Date()): Promise<Principal | Refusal> {
  const [row] = await db
    .select({ key: keyColumns, workspace: workspaces })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.secretHash, hashSecret(secret)))
    .limit(1);
  if (!row) return { refused: "invalid" };
  const known = { keyId: row.key.id, workspaceId: row.workspace.id };
  if (row.key.revokedAt) return { refused: "revoked", ...known };
  if (row.key.expiresAt && row.key.expiresAt.getTime() <= now.getTime()) return { refused: "expired", ...known };
  const lastUsedAt = await recordLastUse(db, apiKeys, row.key, now);
  return { key: { ...row.key, lastUsedAt }, workspace: row.workspace };
}

/**
 * Revokes a key at once (the next request with it is refused). Revoking a revoked key keeps the
 * first revocation time. Undefined when there is no such key (in `workspaceId`, when given: the
 * console revokes only its own workspace's keys; the operator any).
 */
export async function revokeApiKey(
  db: Queryable,
  keyId: string,
  now = new Date(),
  workspaceId?: string,
): Promise<ApiKeyRecord | undefined> {
  const which = and(
    eq(apiKeys.id, keyId),
    workspaceId === undefined ? undefined : eq(apiKeys.workspaceId, workspaceId),
  );
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(which, isNull(apiKeys.revokedAt)))
    .returning(keyColumns);
  if (revoked) return revoked;
  const [existing] = await db.select(keyColumns).from(apiKeys).where(which).limit(1);
  return existing;
}

/** A workspace's keys, newest first, revoked and expired ones included. */
export async function listApiKeys(db: Queryable, workspaceId: string): Promise<ApiKeyRecord[]> {
  return db
    .select(keyColumns)
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, workspaceId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** What state a key is in at `now`, for listings. */
export function keyStatus(key: ApiKeyRecord, now = new Date()): "active" | "revoked" | "expired" {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}

/** The key as the contract shows it: never its secret or hash. */
export function toApiKey({ key, workspace, client }: Principal): SchemaApiKey {
  return {
    id: key.id,
    name: key.name,
    workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name, plan: workspace.plan },
    environment: key.environment,
    scopes: key.scopes as SchemaScope[],
    display_prefix: key.displayPrefix,
    last4: key.last4,
    created_at: iso(key.createdAt),
    expires_at: isoOrNull(key.expiresAt),
    last_used_at: isoOrNull(key.lastUsedAt),
    ...(client ? { oauth_application: { id: client.id, name: client.name } } : {}),
  };
}
