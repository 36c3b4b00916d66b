// The applications connected to a workspace, as the settings console lists them (Connected apps),
// and disconnecting one: every grant of it in the workspace revoked at once.
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { Queryable } from "../storage/index.ts";
import { memberships, oauthClients, oauthCodes, oauthGrants, oauthTokens, users } from "../storage/schema.ts";
import { memberOfGrant } from "./oauth.ts";

export interface ConnectedApp {
  readonly clientId: string;
  readonly clientName: string;
  /** The union of the scopes of the application's live grants. */
  readonly scopes: string[];
  /** The email of the member who authorized it last. */
  readonly authorizedBy: string;
  /** When it was last authorized. */
  readonly authorizedAt: Date;
  readonly lastUsedAt: Date | null;
}

/**
 * The applications that can act in the workspace: one row per client with live grants — not revoked,
 * consented by someone still a member, and holding an unexpired token or an unused unexpired code —
 * most recently authorized first.
 */
export async function listConnectedApps(db: Queryable, workspaceId: string, now = new Date()): Promise<ConnectedApp[]> {
  const rows = await db
    .select({
      clientId: oauthGrants.clientId,
      clientName: oauthClients.name,
      scopes: oauthGrants.scopes,
      email: users.email,
      createdAt: oauthGrants.createdAt,
      lastUsedAt: oauthGrants.lastUsedAt,
    })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .innerJoin(memberships, memberOfGrant)
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    .where(
      and(
        eq(oauthGrants.workspaceId, workspaceId),
        isNull(oauthGrants.revokedAt),
        or(
          sql`exists (select 1 from ${oauthTokens} where ${oauthTokens.grantId} = ${oauthGrants.id} and ${oauthTokens.expiresAt} > ${now} and ${oauthTokens.usedAt} is null)`,
          sql`exists (select 1 from ${oauthCodes} where ${oauthCodes.grantId} = ${oauthGrants.id} and ${oauthCodes.expiresAt} > ${now} and ${oauthCodes.usedAt} is null)`,
        ),
      ),
    )
    .orderBy(desc(oauthGrants.createdAt), desc(oauthGrants.id));
  const apps = new Map<
    string,
    {
      clientId: string;
      clientName: string;
      scopes: Set<string>;
      authorizedBy: string;
      authorizedAt: Date;
      lastUsedAt: Date | null;
    }
  >();
  for (const row of rows) {
    const app = apps.get(row.clientId);
    if (!app) {
      // Rows are newest first: the first of a client is its latest authorization.
      apps.set(row.clientId, {
        clientId: row.clientId,
        clientName: row.clientName,
        scopes: new Set(row.scopes),
        authorizedBy: row.email,
        authorizedAt: row.createdAt,
        lastUsedAt: row.lastUsedAt,
      });
      continue;
    }
    for (const scope of row.scopes) app.scopes.add(scope);
    if (row.lastUsedAt && (!app.lastUsedAt || row.lastUsedAt > app.lastUsedAt)) app.lastUsedAt = row.lastUsedAt;
  }
  return [...apps.values()].map((app) => ({ ...app, scopes: app.scopes.has("*") ? ["*"] : [...app.scopes].sort() }));
}

/** Revokes every grant of the application in the workspace, at once; returns how many were live. */
export async function revokeConnectedApp(
  db: Queryable,
  workspaceId: string,
  clientId: string,
  now = new Date(),
): Promise<number> {
  const revoked = await db
    .update(oauthGrants)
    .set({ revokedAt: now })
    .where(
      and(eq(oauthGrants.workspaceId, workspaceId), eq(oauthGrants.clientId, clientId), isNull(oauthGrants.revokedAt)),
    )
    .returning({ id: oauthGrants.id });
  return revoked.length;
}
