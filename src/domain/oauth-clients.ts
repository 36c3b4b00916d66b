// OAuth applications: registered by the operator (`pbs oauth-clients create`), each with the exact
// redirect URIs it may use. Confidential clients get a secret (shown once; only its SHA-256 is
// kept); public clients (apps that cannot keep a secret) get none and must use PKCE.
import { timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Queryable } from "../storage/index.ts";
import { newId, randomBase62 } from "../storage/ids.ts";
import { oauthClients, type OAuthClient } from "../storage/schema.ts";
import { InvalidInputError } from "./errors.ts";
import { hashSecret } from "./keys.ts";

export type { OAuthClient };

export const CLIENT_SECRET_PREFIX = "pbs_cs_";

export interface NewOAuthClient {
  readonly name: string;
  readonly redirectUris: readonly string[];
  /** A public client has no secret and must use PKCE. */
  readonly public?: boolean;
}

/**
 * A redirect URI an application may register: absolute, no fragment (RFC 6749 §3.1.2); https, or
 * http only to a loopback host (native apps, RFC 8252 §7.3), or a private-use scheme such as
 * `com.example.app:/callback` (RFC 8252 §7.1).
 */
export function validRedirectUri(raw: string): string {
  let uri: URL;
  try {
    uri = new URL(raw);
  } catch {
    throw new InvalidInputError(`"${raw}" is not an absolute URI`, "redirect_uri");
  }
  if (uri.hash || raw.includes("#"))
    throw new InvalidInputError("a redirect URI must not have a fragment", "redirect_uri");
  if (raw.length > 2000 || raw.includes("\u0000"))
    throw new InvalidInputError("a redirect URI must be at most 2000 characters", "redirect_uri");
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(uri.hostname);
  if (uri.protocol === "http:" && !loopback)
    throw new InvalidInputError("a redirect URI must use https (http only for localhost)", "redirect_uri");
  if (["javascript:", "data:", "file:", "vbscript:", "blob:"].includes(uri.protocol)) {
    throw new InvalidInputError(`a redirect URI cannot use ${uri.protocol}`, "redirect_uri");
  }
  return raw;
}

export async function createOAuthClient(
  db: Queryable,
  input: NewOAuthClient,
): Promise<{ client: OAuthClient; secret: string | undefined }> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100 || name.includes("\u0000"))
    throw new InvalidInputError("the name must be 1–100 characters", "name");
  if (input.redirectUris.length === 0)
    throw new InvalidInputError("an application needs at least one redirect URI", "redirect_uri");
  const redirectUris = [...new Set(input.redirectUris.map(validRedirectUri))];
  const secret = input.public ? undefined : CLIENT_SECRET_PREFIX + randomBase62(40);
  const [client] = await db
    .insert(oauthClients)
    .values({ id: newId("pbc"), name, redirectUris, secretHash: secret ? hashSecret(secret) : null })
    .returning();
  return { client: client!, secret };
}

/** The shape of every client id (the contract's OAuthClientId); anything else names no client. */
const CLIENT_ID = /^pbc_[0-9A-Za-z]{8,64}$/;

export async function findOAuthClient(db: Queryable, clientId: string): Promise<OAuthClient | undefined> {
  // Checked before the database sees it: a NUL in a text parameter fails the query (a 500).
  if (!CLIENT_ID.test(clientId)) return undefined;
  const [client] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId)).limit(1);
  return client;
}

/** Whether `secret` is the client's; always false for a public client. Constant-time. */
export function clientSecretMatches(client: OAuthClient, secret: string): boolean {
  if (!client.secretHash) return false;
  const expected = Buffer.from(client.secretHash, "hex");
  const actual = Buffer.from(hashSecret(secret), "hex");
  return timingSafeEqual(expected, actual);
}

export function isPublicClient(client: OAuthClient): boolean {
  return client.secretHash === null;
}
