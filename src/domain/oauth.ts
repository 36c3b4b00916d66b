// OAuth 2.0 grants, codes and tokens: what a member's consent lets an application do, and the
// bearer secrets that carry it. (Client registration: oauth-clients.ts. Using an access token:
// oauth-access.ts. The console's connected apps: connected-apps.ts. The protocol endpoints and the
// consent page: src/oauth/.) Consent, codes, tokens, rotation, revocation and their purge are one
// lifecycle, whose single-use and theft rules are these:
//
// - A grant is one consent: one member, one application, one workspace, the scopes the member could
//   give at that moment. Every code, access token and refresh token belongs to one grant; revoking
//   the grant (console, RFC 7009, or reuse of a code or refresh token) ends them all at once.
// - Only SHA-256 hashes of codes and tokens are stored (the secrets are random, ~238 bits: a fast
//   hash is enough, and the hash is the primary key, so a lookup is one index probe).
// - Single use is enforced in SQL (`UPDATE … WHERE used_at IS NULL RETURNING`): of two requests
//   racing with one code or refresh token, exactly one wins. A second use of either is treated as
//   theft (RFC 6749 §4.1.2 and §10.4, OAuth 2.0 Security BCP §4.14) and revokes the grant.
// - An access token is used like an API key; what it may do is decided on every request: the
//   token's scopes narrowed to what the consenting member's role allows now, in the grant's
//   workspace, live data only. A removed member's tokens are refused. Nothing is cached.
import { and, eq, isNull, lt } from "drizzle-orm";
import type { Database, Queryable } from "../storage/index.ts";
import { newId, randomBase62 } from "../storage/ids.ts";
import {
  memberships,
  oauthClients,
  oauthCodes,
  oauthGrants,
  oauthTokens,
  type OAuthClient,
  type OAuthGrant,
} from "../storage/schema.ts";
import type { Scope } from "./keys.ts";
import { hashSecret } from "./keys.ts";
import { effectiveScopes, type MemberRole } from "./members.ts";
import { clientSecretMatches } from "./oauth-clients.ts";

export const ACCESS_TOKEN_PREFIX = "pbo_at_";
export const REFRESH_TOKEN_PREFIX = "pbo_rt_";
export const CODE_PREFIX = "pbo_ac_";

/** Seconds an access token lives. */
export const ACCESS_TOKEN_LIFETIME_S = 3600;
/** Seconds a refresh token lives; each use answers a new one with a fresh lifetime. */
export const REFRESH_TOKEN_LIFETIME_S = 30 * 24 * 3600;
/** Seconds an authorization code lives. */
export const CODE_LIFETIME_S = 600;

/** Random characters after a prefix: 40 base62 characters, ~238 bits (as API keys). */
const RANDOM_LENGTH = 40;
/** The prefix plus this many characters are kept in clear, to recognise a token. */
const DISPLAY_RANDOM_CHARS = 4;
/** Used codes and tokens are kept this long past their expiry, so that a late reuse is still recognised. */
const PURGE_GRACE_MS = 24 * 3600_000;

/** Codes and tokens are hashed as API keys are (random secrets: SHA-256 is enough). */
export const hashOAuthSecret = hashSecret;

export function newAccessToken(): string {
  return ACCESS_TOKEN_PREFIX + randomBase62(RANDOM_LENGTH);
}

export function newRefreshToken(): string {
  return REFRESH_TOKEN_PREFIX + randomBase62(RANDOM_LENGTH);
}

/**
 * The client a token or revocation request authenticates as: a confidential client with its secret
 * (constant-time compare), a public client with none. Undefined otherwise — an unknown client, a
 * wrong secret, a confidential client without its secret, or a public client presenting one.
 */
export async function authenticateOAuthClient(
  db: Queryable,
  clientId: string,
  secret: string | undefined | null,
): Promise<OAuthClient | undefined> {
  if (clientId.length > 100) return undefined;
  const [client] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId)).limit(1);
  if (!client) {
    if (secret) hashSecret(secret); // the same work as for a known client
    return undefined;
  }
  if (client.secretHash === null) return secret ? undefined : client;
  if (!secret || secret.length > 200) return undefined;
  return clientSecretMatches(client, secret) ? client : undefined;
}

// --- Consent ---------------------------------------------------------------------------------------

export interface NewAuthorization {
  readonly clientId: string;
  readonly workspaceId: string;
  readonly userId: string;
  /** What the member grants: already narrowed to their role (`grantableScopes`). */
  readonly scopes: readonly string[];
  /** The redirect URI of the request, exactly; the token request must repeat it. */
  readonly redirectUri: string;
  readonly codeChallenge?: string | undefined;
  readonly codeChallengeMethod?: "S256" | undefined;
}

/** What a member with `role` can grant of `requested`: `effectiveScopes`, `*` expanded when the role has less. */
export function grantableScopes(requested: readonly Scope[], role: MemberRole): Scope[] {
  return effectiveScopes(requested, role);
}

/** Records a consent: a new grant and its one authorization code (returned in clear, once). Run it in a transaction. */
export async function createAuthorization(
  db: Queryable,
  input: NewAuthorization,
  now = new Date(),
): Promise<{ grant: OAuthGrant; code: string }> {
  if (input.scopes.length === 0) throw new Error("an authorization needs at least one scope");
  const [grant] = await db
    .insert(oauthGrants)
    .values({
      id: newId("grt"),
      clientId: input.clientId,
      workspaceId: input.workspaceId,
      userId: input.userId,
      scopes: [...input.scopes],
      createdAt: now,
    })
    .returning();
  const code = CODE_PREFIX + randomBase62(RANDOM_LENGTH);
  await db.insert(oauthCodes).values({
    codeHash: hashOAuthSecret(code),
    grantId: grant!.id,
    redirectUri: input.redirectUri,
    codeChallenge: input.codeChallenge ?? null,
    codeChallengeMethod: input.codeChallenge ? (input.codeChallengeMethod ?? "S256") : null,
    expiresAt: new Date(now.getTime() + CODE_LIFETIME_S * 1000),
  });
  return { grant: grant!, code };
}

// --- Token endpoint --------------------------------------------------------------------------------

/** Why a code or refresh token was not accepted; `reused` revoked its grant. */
export type GrantRefusal = "unknown" | "reused" | "revoked" | "not_a_member";

/** The grant a code or refresh token belongs to, as the token endpoint needs it. */
export interface GrantFacts {
  readonly grantId: string;
  readonly clientId: string;
  readonly workspaceId: string;
  readonly userId: string;
  /** The grant's scopes (what the member consented to). */
  readonly scopes: string[];
}

export interface CodeFacts extends GrantFacts {
  readonly redirectUri: string;
  readonly codeChallenge: string | null;
  readonly codeChallengeMethod: string | null;
  readonly expiresAt: Date;
}

export interface RefreshFacts extends GrantFacts {
  readonly expiresAt: Date;
}

const grantColumns = {
  grantId: oauthGrants.id,
  clientId: oauthGrants.clientId,
  workspaceId: oauthGrants.workspaceId,
  userId: oauthGrants.userId,
  scopes: oauthGrants.scopes,
  revokedAt: oauthGrants.revokedAt,
  role: memberships.role,
};

/** Left join of the grant's member, so that a removed member is seen (role null). */
/** Joins a grant's consenting member (none when they left the workspace). */
export const memberOfGrant = and(
  eq(memberships.workspaceId, oauthGrants.workspaceId),
  eq(memberships.userId, oauthGrants.userId),
);

function grantFacts(row: {
  grantId: string;
  clientId: string;
  workspaceId: string;
  userId: string;
  scopes: string[];
}): GrantFacts {
  return {
    grantId: row.grantId,
    clientId: row.clientId,
    workspaceId: row.workspaceId,
    userId: row.userId,
    scopes: row.scopes,
  };
}

/**
 * The authorization code's grant, when the code may still be exchanged (its expiry is the caller's to
 * check). A code already used is a replay: its grant — and every token issued from the code — is
 * revoked, and the answer is `reused`.
 */
export async function findAuthorizationCode(
  db: Queryable,
  code: string,
  now = new Date(),
): Promise<CodeFacts | { refused: GrantRefusal }> {
  if (code.length > 200) return { refused: "unknown" };
  const [row] = await db
    .select({
      ...grantColumns,
      redirectUri: oauthCodes.redirectUri,
      codeChallenge: oauthCodes.codeChallenge,
      codeChallengeMethod: oauthCodes.codeChallengeMethod,
      expiresAt: oauthCodes.expiresAt,
      usedAt: oauthCodes.usedAt,
    })
    .from(oauthCodes)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthCodes.grantId))
    .leftJoin(memberships, memberOfGrant)
    .where(eq(oauthCodes.codeHash, hashOAuthSecret(code)))
    .limit(1);
  if (!row) return { refused: "unknown" };
  if (row.usedAt) {
    await revokeGrant(db, row.grantId, now);
    return { refused: "reused" };
  }
  if (row.revokedAt) return { refused: "revoked" };
  if (!row.role) return { refused: "not_a_member" };
  return {
    ...grantFacts(row),
    redirectUri: row.redirectUri,
    codeChallenge: row.codeChallenge,
    codeChallengeMethod: row.codeChallengeMethod,
    expiresAt: row.expiresAt,
  };
}

/**
 * Marks the code used; false when another request used it first (then its grant is revoked: of two
 * exchanges of one code, none keeps working tokens).
 */
export async function consumeAuthorizationCode(db: Queryable, code: string, now = new Date()): Promise<boolean> {
  const [used] = await db
    .update(oauthCodes)
    .set({ usedAt: now })
    .where(and(eq(oauthCodes.codeHash, hashOAuthSecret(code)), isNull(oauthCodes.usedAt)))
    .returning({ grantId: oauthCodes.grantId });
  if (used) return true;
  const [row] = await db
    .select({ grantId: oauthCodes.grantId })
    .from(oauthCodes)
    .where(eq(oauthCodes.codeHash, hashOAuthSecret(code)))
    .limit(1);
  if (row) await revokeGrant(db, row.grantId, now);
  return false;
}

/**
 * The refresh token's grant, when it may still be used (its expiry is the caller's to check). A
 * refresh token used before is a replay: the whole grant (the token family) is revoked.
 */
export async function findRefreshToken(
  db: Queryable,
  token: string,
  now = new Date(),
): Promise<RefreshFacts | { refused: GrantRefusal }> {
  if (token.length > 200) return { refused: "unknown" };
  const [row] = await db
    .select({ ...grantColumns, kind: oauthTokens.kind, expiresAt: oauthTokens.expiresAt, usedAt: oauthTokens.usedAt })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .leftJoin(memberships, memberOfGrant)
    .where(eq(oauthTokens.tokenHash, hashOAuthSecret(token)))
    .limit(1);
  if (!row || row.kind !== "refresh") return { refused: "unknown" };
  if (row.usedAt) {
    await revokeGrant(db, row.grantId, now);
    return { refused: "reused" };
  }
  if (row.revokedAt) return { refused: "revoked" };
  if (!row.role) return { refused: "not_a_member" };
  return { ...grantFacts(row), expiresAt: row.expiresAt };
}

/** Marks the refresh token used; false when another request used it first, which revokes the grant. */
async function consumeRefreshToken(db: Queryable, token: string, now = new Date()): Promise<boolean> {
  const hash = hashOAuthSecret(token);
  const [used] = await db
    .update(oauthTokens)
    .set({ usedAt: now })
    .where(and(eq(oauthTokens.tokenHash, hash), eq(oauthTokens.kind, "refresh"), isNull(oauthTokens.usedAt)))
    .returning({ grantId: oauthTokens.grantId });
  if (used) return true;
  const [row] = await db
    .select({ grantId: oauthTokens.grantId })
    .from(oauthTokens)
    .where(eq(oauthTokens.tokenHash, hash))
    .limit(1);
  if (row) await revokeGrant(db, row.grantId, now);
  return false;
}

export interface IssuedTokens {
  readonly grantId: string;
  readonly accessToken: string;
  readonly accessTokenExpiresAt: Date;
  /** The access token's scopes: the grant's, or fewer when a refresh asked for fewer. */
  readonly scopes: readonly string[];
  readonly refreshToken: string;
  readonly refreshTokenExpiresAt: Date;
}

/**
 * Stores a new access token and refresh token of a grant. The refresh token always carries the
 * grant's scopes, so a refresh that asked for fewer does not narrow later ones (RFC 6749 §6). False
 * when the grant was revoked meanwhile (nothing is stored).
 */
export async function saveTokens(db: Queryable, tokens: IssuedTokens, now = new Date()): Promise<boolean> {
  const [grant] = await db
    .select({ scopes: oauthGrants.scopes })
    .from(oauthGrants)
    .where(and(eq(oauthGrants.id, tokens.grantId), isNull(oauthGrants.revokedAt)))
    .limit(1);
  if (!grant) return false;
  const row = (token: string, kind: "access" | "refresh", scopes: readonly string[], expiresAt: Date) => ({
    tokenHash: hashOAuthSecret(token),
    grantId: tokens.grantId,
    kind,
    scopes: [...scopes],
    displayPrefix: token.slice(0, ACCESS_TOKEN_PREFIX.length + DISPLAY_RANDOM_CHARS),
    last4: token.slice(-4),
    createdAt: now,
    expiresAt,
  });
  await db
    .insert(oauthTokens)
    .values([
      row(tokens.accessToken, "access", tokens.scopes, tokens.accessTokenExpiresAt),
      row(tokens.refreshToken, "refresh", grant.scopes, tokens.refreshTokenExpiresAt),
    ]);
  return true;
}

/**
 * Refresh rotation: uses up the refresh token and stores its successors in one transaction, so that a
 * failure between the two leaves the old token usable (its retry is no replay). Of simultaneous
 * rotations with one token exactly one gets past the conditional UPDATE; the others wait for it and
 * find the token used, which revokes the grant. False when the token was used first by another
 * request, or the grant was revoked meanwhile: no new token is stored then.
 */
export async function rotateRefreshToken(
  db: Database,
  used: string,
  tokens: IssuedTokens,
  now = new Date(),
): Promise<boolean> {
  return db.transaction(async (tx) => (await consumeRefreshToken(tx, used, now)) && saveTokens(tx, tokens, now));
}

/** Revokes a grant and so every code and token of it, at once. False when it was already revoked (or unknown). */
export async function revokeGrant(db: Queryable, grantId: string, now = new Date()): Promise<boolean> {
  const revoked = await db
    .update(oauthGrants)
    .set({ revokedAt: now })
    .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)))
    .returning({ id: oauthGrants.id });
  return revoked.length > 0;
}

/**
 * RFC 7009: revokes the grant of an access or refresh token issued to `clientId`. A token that is
 * unknown, already revoked, or another client's is left alone (undefined): the endpoint answers the
 * same in every case.
 */
export async function revokeToken(
  db: Queryable,
  clientId: string,
  token: string,
  now = new Date(),
): Promise<{ grantId: string; workspaceId: string } | undefined> {
  if (token.length > 200) return undefined;
  const [row] = await db
    .select({ grantId: oauthGrants.id, workspaceId: oauthGrants.workspaceId, clientId: oauthGrants.clientId })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(eq(oauthTokens.tokenHash, hashOAuthSecret(token)))
    .limit(1);
  if (!row || row.clientId !== clientId) return undefined;
  return (await revokeGrant(db, row.grantId, now)) ? { grantId: row.grantId, workspaceId: row.workspaceId } : undefined;
}

// --- Housekeeping --------------------------------------------------------------------------------------

/**
 * Deletes codes and tokens a day after they expired (kept that long so that a late replay is still
 * recognised and revokes its grant). Grants stay: they are what the audit log's actions refer to.
 */
export async function purgeExpiredOAuth(db: Queryable, now = new Date()): Promise<void> {
  const before = new Date(now.getTime() - PURGE_GRACE_MS);
  await db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, before));
  await db.delete(oauthTokens).where(lt(oauthTokens.expiresAt, before));
}
