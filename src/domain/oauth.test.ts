// Refresh rotation on both drivers (test/oauth.test.ts drives the protocol on the embedded one, which
// runs one statement at a time: the race below is real only on PostgreSQL).
import { expect, it } from "vitest";
import { forEachDriver, useStorage } from "../../test/support/database.ts";
import type { Database } from "../storage/index.ts";
import { addMember } from "./members.ts";
import { createOAuthClient } from "./oauth-clients.ts";
import {
  createAuthorization,
  findRefreshToken,
  newAccessToken,
  newRefreshToken,
  rotateRefreshToken,
  saveTokens,
  type IssuedTokens,
} from "./oauth.ts";
import { createWorkspace } from "./workspaces.ts";

forEachDriver("OAuth refresh rotation", (driver) => {
  const storage = useStorage(driver);

  /** A grant with its first access and refresh tokens; returns the grant id and the refresh token. */
  async function granted(db: Database): Promise<{ grantId: string; refreshToken: string }> {
    const workspace = await createWorkspace(db, { slug: "acme" });
    const { user } = await addMember(db, {
      workspaceId: workspace.id,
      email: "ana@example.com",
      role: "owner",
      password: "a long enough password",
    });
    const { client } = await createOAuthClient(db, {
      name: "Integration",
      redirectUris: ["https://integration.example/cb"],
    });
    const { grant } = await createAuthorization(db, {
      clientId: client.id,
      workspaceId: workspace.id,
      userId: user.id,
      scopes: ["projects:read"],
      redirectUri: "https://integration.example/cb",
    });
    const first = successors(grant.id);
    expect(await saveTokens(db, first)).toBe(true);
    return { grantId: grant.id, refreshToken: first.refreshToken };
  }

  function successors(grantId: string): IssuedTokens {
    const hour = new Date(Date.now() + 3600_000);
    return {
      grantId,
      accessToken: newAccessToken(),
      accessTokenExpiresAt: hour,
      scopes: ["projects:read"],
      refreshToken: newRefreshToken(),
      refreshTokenExpiresAt: hour,
    };
  }

  it("leaves the old refresh token usable when its successors cannot be stored", async () => {
    const { db } = storage();
    const { grantId, refreshToken } = await granted(db);
    // A successor whose hash is already stored (the token itself): the insert fails after the UPDATE.
    const colliding = { ...successors(grantId), accessToken: refreshToken };
    await expect(rotateRefreshToken(db, refreshToken, colliding)).rejects.toThrow();
    expect(await findRefreshToken(db, refreshToken)).toMatchObject({ grantId });
    expect(await rotateRefreshToken(db, refreshToken, successors(grantId))).toBe(true);
    expect(await findRefreshToken(db, refreshToken)).toEqual({ refused: "reused" });
  });

  it("lets exactly one of simultaneous rotations with one refresh token win; the others revoke the grant", async () => {
    const { db } = storage();
    const { grantId, refreshToken } = await granted(db);
    const candidates = [1, 2, 3].map(() => successors(grantId));
    const outcomes = await Promise.all(candidates.map((tokens) => rotateRefreshToken(db, refreshToken, tokens)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    // The losers' tokens were never stored; the winner's belong to a grant the losers revoked.
    for (const [index, tokens] of candidates.entries()) {
      expect(await findRefreshToken(db, tokens.refreshToken)).toEqual({
        refused: outcomes[index] ? "revoked" : "unknown",
      });
    }
  });
});
