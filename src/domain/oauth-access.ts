// Using an OAuth access token: it is "used exactly like an API key" (src/app.ts hands the pipeline
// this or keys.ts's authenticate by the secret's prefix). What it may do is decided on every request
// (see oauth.ts, "An access token …"); nothing is cached here.
import { eq, getTableColumns } from "drizzle-orm";
import type { Queryable } from "../storage/index.ts";
import { memberships, oauthClients, oauthGrants, oauthTokens, workspaces } from "../storage/schema.ts";
import type { Principal, Refusal } from "./keys.ts";
import { recordLastUse } from "./last-use.ts";
import { effectiveScopes } from "./members.ts";
import { hashOAuthSecret, memberOfGrant } from "./oauth.ts";

const { secretHash: _secretHash, ...clientColumns } = getTableColumns(oauthClients);

/**
 * The principal of an access token: "used exactly like an API key". Its `key` describes the token
 * (id: the grant's; name: the application's; live; the scopes it may use now) and `client` names the
 * application. A known token that cannot be used is refused with its workspace and client, for the
 * audit log.
 */
export async function authenticateAccessToken(
  db: Queryable,
  token: string,
  now = new Date(),
): Promise<Principal | Refusal> {
  const [row] = await db
    .select({
      token: {
        kind: oauthTokens.kind,
        scopes: oauthTokens.scopes,
        displayPrefix: oauthTokens.displayPrefix,
        last4: oauthTokens.last4,
        createdAt: oauthTokens.createdAt,
        expiresAt: oauthTokens.expiresAt,
      },
      grant: oauthGrants,
      client: clientColumns,
      workspace: workspaces,
      role: memberships.role,
    })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .innerJoin(workspaces, eq(workspaces.id, oauthGrants.workspaceId))
    .leftJoin(memberships, memberOfGrant)
    .where(eq(oauthTokens.tokenHash, hashOAuthSecret(token)))
    .limit(1);
  // A refresh token is no bearer credential for the API: refused as unknown.
  if (!row || row.token.kind !== "access") return { refused: "invalid" };
  const known = { workspaceId: row.workspace.id, clientId: row.client.id };
  if (row.grant.revokedAt) return { refused: "revoked", ...known };
  if (row.token.expiresAt.getTime() <= now.getTime()) return { refused: "expired", ...known };
  // The member who consented left the workspace: their consent no longer holds.
  if (!row.role) return { refused: "revoked", ...known };
  const scopes = effectiveScopes(row.token.scopes, row.role);
  // Nothing the member may do now: a token without any reach is refused rather than let in empty.
  if (scopes.length === 0) return { refused: "revoked", ...known };
  const lastUsedAt = await recordLastUse(db, oauthGrants, row.grant, now);
  return {
    key: {
      id: row.grant.id,
      workspaceId: row.workspace.id,
      name: row.client.name,
      environment: "live",
      scopes,
      displayPrefix: row.token.displayPrefix,
      last4: row.token.last4,
      createdAt: row.token.createdAt,
      expiresAt: row.token.expiresAt,
      revokedAt: null,
      lastUsedAt,
      createdBy: row.grant.userId,
    },
    workspace: row.workspace,
    client: { id: row.client.id, name: row.client.name },
  };
}
