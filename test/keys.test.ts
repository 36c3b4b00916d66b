// GET /v1/key over HTTP, end to end, on the embedded database.
import { expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "../src/domain/keys.ts";
import { ensureWorkspace } from "../src/domain/workspaces.ts";
import { expectApiError, expectBody, expectStatus } from "./support/api-client.ts";
import { insertLegacyKey } from "./support/legacy-keys.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { suiteServer } from "./support/server.ts";

onEmbeddedDatabase("keys", (driver) => {
  const server = suiteServer(driver);

  it("tells the calling key what it is, without its secret", async () => {
    const { workspace } = await ensureWorkspace(server.storage.db, {
      slug: "initech",
      name: "Initech Ltd",
      plan: "team",
    });
    const before = new Date();
    const { key, secret } = await createApiKey(server.storage.db, {
      workspaceId: workspace.id,
      name: "CI deploys",
      environment: "test",
      scopes: ["projects:read", "deployments:write"],
      expires: "30d",
    });
    const response = await server.as(secret).get("/v1/key");
    expectStatus(response, 200);
    expect(response.body).toEqual({
      id: key.id,
      name: "CI deploys",
      workspace: { id: workspace.id, slug: "initech", name: "Initech Ltd", plan: "team" },
      environment: "test",
      scopes: ["projects:read", "deployments:write"],
      display_prefix: secret.slice(0, "svc_test_".length + 4),
      last4: secret.slice(-4),
      created_at: key.createdAt.toISOString(),
      expires_at: key.expiresAt!.toISOString(),
      last_used_at: expect.any(String),
    });
    expect(response.body.display_prefix).toMatch(/^svc_test_[0-9A-Za-z]{4}$/);
    const thirtyDays = 30 * 86_400_000;
    expect(Date.parse(response.body.expires_at!) - Date.parse(response.body.created_at)).toBe(thirtyDays);
    // This very request is a use of the key.
    expect(Date.parse(response.body.last_used_at!)).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(new TextDecoder().decode(response.bytes)).not.toContain(secret);
    expect(new TextDecoder().decode(response.bytes)).not.toContain(secret.slice("svc_test_".length));
  });

  it("answers the default key: live, full access, never expiring", async () => {
    const response = await server.client.get("/v1/key");
    expectStatus(response, 200);
    expect(response.body).toMatchObject({
      name: "test",
      workspace: { slug: "acme", plan: "pro" },
      environment: "live",
      scopes: ["*"],
      expires_at: null,
    });
    expect(response.body.id).toMatch(/^key_/);
    expect(response.body.display_prefix).toMatch(/^svc_live_/);
    expect(response.body.last4).toHaveLength(4);
  });

  it("keeps last_used_at to one write a minute", async () => {
    const secret = await server.createKey({ workspace: "umbrella" });
    const client = server.as(secret);
    const first = expectBody(await client.get("/v1/key"), 200).last_used_at;
    expect(first).not.toBeNull();
    const second = expectBody(await client.get("/v1/key"), 200).last_used_at;
    expect(second).toBe(first);
  });

  it("may be called by any valid key, whatever its scopes", async () => {
    for (const scopes of [["billing:read"], ["webhooks:write"], ["files:read", "agents:run"]]) {
      const response = await server.as(await server.createKey({ scopes })).get("/v1/key");
      expectStatus(response, 200);
      expect(response.body.scopes).toEqual(scopes);
    }
  });

  it("refuses a missing, unknown, revoked or expired key", async () => {
    expect(expectBody(await server.as(null).get("/v1/key"), 401).error.code).toBe("missing_api_key");
    expect(
      expectBody(await server.as("svc_live_notARealKey0000000000000000000000000000").get("/v1/key"), 401).error.code,
    ).toBe("invalid_api_key");

    const { workspace } = await ensureWorkspace(server.storage.db, { slug: "acme" });
    const revoked = await createApiKey(server.storage.db, { workspaceId: workspace.id, name: "old" });
    expect((await server.as(revoked.secret).get("/v1/key")).status).toBe(200);
    await revokeApiKey(server.storage.db, revoked.key.id);
    const afterRevoke = await server.as(revoked.secret).get("/v1/key");
    expectStatus(afterRevoke, 401);
    expect(afterRevoke.body.error.code).toBe("invalid_api_key");

    const soon = new Date(Date.now() + 1500);
    const expiring = await createApiKey(server.storage.db, { workspaceId: workspace.id, name: "brief", expires: soon });
    expect(expectBody(await server.as(expiring.secret).get("/v1/key"), 200).expires_at).toBe(soon.toISOString());
    await new Promise((resolve) => setTimeout(resolve, soon.getTime() - Date.now() + 50));
    const expired = await server.as(expiring.secret).get("/v1/key");
    expectStatus(expired, 401);
    expect(expired.body.error.code).toBe("expired_api_key");
  });

  it("serves a key without a checksum, and refuses it once revoked", async () => {
    const { workspace } = await ensureWorkspace(server.storage.db, { slug: "legacy" });
    const secret = await insertLegacyKey(server.storage.db, workspace.id);
    const response = await server.as(secret).get("/v1/key");
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ name: "without a checksum", last4: secret.slice(-4) });
    await revokeApiKey(server.storage.db, response.body.id);
    expectApiError(await server.as(secret).get("/v1/key"), 401, "invalid_api_key", "Authorization");
  });
});
