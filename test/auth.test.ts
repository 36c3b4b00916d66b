// Authentication over HTTP, on the embedded database: each 401 code of the description, in the
// contract's error shape with the request id of the response; a refused caller consumes no key's
// quota; every attempt, refused ones included, is written to the audit log.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "../src/domain/keys.ts";
import { ensureWorkspace } from "../src/domain/workspaces.ts";
import { apiKeys } from "../src/storage/schema.ts";
import {
  expectApiError,
  expectBody,
  expectStatus,
  invalidBody,
  type ApiResponse,
  type Schemas,
} from "./support/api-client.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { suiteServer } from "./support/server.ts";

type AuthCode = "missing_api_key" | "invalid_api_key" | "expired_api_key";

/** A 401 in the contract's error shape, naming Authorization, with the response's request id, and no rate-limit figures. */
function expectRefused(response: ApiResponse, code: AuthCode): asserts response is ApiResponse<401, Schemas["Error"]> {
  expectApiError(response, 401, code, "Authorization");
  // No key was identified, so no quota was charged and none is reported.
  for (const header of [
    "ratelimit",
    "ratelimit-policy",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-used",
    "x-ratelimit-reset",
    "retry-after",
  ]) {
    expect(response.headers.get(header), header).toBeNull();
  }
}

onEmbeddedDatabase("authentication", (driver) => {
  const server = suiteServer(driver);

  /** A key of workspace `acme` with its id, made through the domain so the test can revoke or age it. */
  async function newKey(options: { expiresAt?: Date; createdAt?: Date } = {}): Promise<{ id: string; secret: string }> {
    const { workspace } = await ensureWorkspace(server.storage.db, { slug: "acme", plan: "pro" });
    const created = await createApiKey(
      server.storage.db,
      { workspaceId: workspace.id, name: "auth test", ...(options.expiresAt ? { expires: options.expiresAt } : {}) },
      options.createdAt,
    );
    return { id: created.key.id, secret: created.secret };
  }

  describe("missing_api_key", () => {
    it("answers a request without Authorization, on reads and writes alike", async () => {
      const anonymous = server.as(null);
      expectRefused(await anonymous.get("/v1/projects"), "missing_api_key");
      expectRefused(await anonymous.get("/v1/key"), "missing_api_key");
      expectRefused(await anonymous.post("/v1/projects", { name: "x", prompt: "y" }), "missing_api_key");
    });

    it("comes before body checks: a bad body or content type without a key is still 401", async () => {
      const anonymous = server.as(null);
      expectRefused(await anonymous.post("/v1/projects", invalidBody({ name: "no prompt" })), "missing_api_key");
      const textBody = await anonymous.request("POST", "/v1/projects", {
        raw: "hello",
        headers: { "Content-Type": "text/plain" },
      });
      expectRefused(textBody, "missing_api_key");
    });
  });

  describe("invalid_api_key", () => {
    it("answers unknown and malformed secrets alike", async () => {
      const unknownLive = `svc_live_${"A".repeat(40)}`;
      const unknownTest = `svc_test_${"b".repeat(40)}`;
      for (const secret of ["garbage", unknownLive, unknownTest, "svc_live_", "x".repeat(5000)]) {
        expectRefused(await server.as(secret).get("/v1/key"), "invalid_api_key");
      }
    });

    it("refuses a scheme other than Bearer, even around a valid secret", async () => {
      const { secret } = await newKey();
      const basic = Buffer.from(`user:${secret}`).toString("base64");
      for (const authorization of [
        `Basic ${basic}`,
        `Basic ${secret}`,
        `Token ${secret}`,
        secret,
        "Bearer",
        `Bearer ${secret} extra`,
      ]) {
        const response = await server.as(null).get("/v1/key", { headers: { Authorization: authorization } });
        expectRefused(response, "invalid_api_key");
      }
      // The scheme name itself is case-insensitive (RFC 9110 §11.1).
      const lower = await server.as(null).get("/v1/key", { headers: { Authorization: `bearer ${secret}` } });
      expect(lower.status).toBe(200);
    });

    it("answers a revoked key at once, exactly like an unknown one", async () => {
      const { id, secret } = await newKey();
      const client = server.as(secret);
      expect((await client.get("/v1/key")).status).toBe(200);
      await revokeApiKey(server.storage.db, id);
      const revoked = await client.get("/v1/key");
      expectRefused(revoked, "invalid_api_key");
      const unknown = await server.as(`svc_live_${"Z".repeat(40)}`).get("/v1/key");
      expect(revoked.body.error.message).toBe(expectBody(unknown, 401).error.message); // no hint that the key existed
      expectRefused(await client.post("/v1/projects", { name: "after revoke", prompt: "p" }), "invalid_api_key");
    });
  });

  describe("expired_api_key", () => {
    it("answers a key created with an expiry that has passed", async () => {
      const created = new Date(Date.now() - 60 * 60 * 1000);
      const { secret } = await newKey({ createdAt: created, expiresAt: new Date(Date.now() - 1000) });
      expectRefused(await server.as(secret).get("/v1/key"), "expired_api_key");
      expectRefused(await server.as(secret).get("/v1/projects"), "expired_api_key");
    });

    it("answers a working key as soon as its expiry passes", async () => {
      const { id, secret } = await newKey({ expiresAt: new Date(Date.now() + 30 * 24 * 3600 * 1000) });
      const ok = await server.as(secret).get("/v1/key");
      expectStatus(ok, 200);
      expect(Date.parse(ok.body.expires_at!)).toBeGreaterThan(Date.now());
      await server.storage.db
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1) })
        .where(eq(apiKeys.id, id));
      expectRefused(await server.as(secret).get("/v1/key"), "expired_api_key");
    });

    it("says revoked rather than expired for a key that is both", async () => {
      const { id, secret } = await newKey({
        createdAt: new Date(Date.now() - 3600_000),
        expiresAt: new Date(Date.now() - 1000),
      });
      await revokeApiKey(server.storage.db, id);
      expectRefused(await server.as(secret).get("/v1/key"), "invalid_api_key");
    });
  });

  it("a refused request consumes no quota of any key", async () => {
    const { id, secret } = await newKey();
    const remaining = async () => Number((await server.as(secret).get("/v1/key")).headers.get("x-ratelimit-remaining"));
    const before = await remaining();
    // Refusals that name nothing, and refusals that carry this very key's secret under a wrong scheme.
    await server.as(null).get("/v1/key");
    await server.as("garbage").get("/v1/key");
    await server.as(null).get("/v1/key", { headers: { Authorization: `Basic ${secret}` } });
    await server.as(null).get("/v1/key", { headers: { Authorization: `Token ${secret}` } });
    expect(await remaining()).toBe(before - 1);
    // A revoked key: the refused requests do not count either (its quota is nobody's to spend now).
    await revokeApiKey(server.storage.db, id);
    for (let i = 0; i < 3; i++) expectRefused(await server.as(secret).get("/v1/key"), "invalid_api_key");
  });

  describe("audit log", () => {
    it("records a refused request: no workspace or key, the route, status 401, IP, user agent, request id, latency", async () => {
      const response = await server
        .as("garbage")
        .post("/v1/projects", { name: "x", prompt: "y" }, { headers: { "User-Agent": "auth-test/1.0" } });
      expectRefused(response, "invalid_api_key");
      const row = await server.auditRow(response.headers.get("x-request-id")!);
      expect(row).toMatchObject({
        workspaceId: null,
        keyId: null,
        method: "POST",
        route: "/v1/projects",
        path: "/v1/projects",
        status: 401,
        ip: expect.stringMatching(/127\.0\.0\.1$/),
        userAgent: "auth-test/1.0",
      });
      expect(row.latencyMs).toBeGreaterThanOrEqual(0);
      expect(row.occurredAt).toBeInstanceOf(Date);
    });

    it("records each kind of refusal", async () => {
      const expired = await newKey({
        createdAt: new Date(Date.now() - 3600_000),
        expiresAt: new Date(Date.now() - 1000),
      });
      const revoked = await newKey();
      await revokeApiKey(server.storage.db, revoked.id);
      const responses = [
        await server.as(null).get("/v1/projects/prj_8kF2mQ9xLp3vR7tZ"),
        await server.as(expired.secret).get("/v1/projects"),
        await server.as(revoked.secret).get("/v1/projects"),
        await server.as(null).get("/v1/key", { headers: { Authorization: "Basic dXNlcjpwYXNz" } }),
      ];
      const rows = await Promise.all(
        responses.map((response) => server.auditRow(response.headers.get("x-request-id")!)),
      );
      expect(rows.map((row) => [row.status, row.route, row.path])).toEqual([
        [401, "/v1/projects/{project_id}", "/v1/projects/prj_8kF2mQ9xLp3vR7tZ"],
        [401, "/v1/projects", "/v1/projects"],
        [401, "/v1/projects", "/v1/projects"],
        [401, "/v1/key", "/v1/key"],
      ]);
      // A known key that was refused (expired, revoked) is named, so its misuse can be traced; no
      // key at all, or a wrong scheme, names nobody.
      expect(rows.map((row) => row.keyId)).toEqual([null, expired.id, revoked.id, null]);
      expect(rows[1]!.workspaceId).toMatch(/^ws_/);
      expect(rows[0]!.workspaceId).toBeNull();
    });

    it("records an accepted request with its workspace and key, and never the secret", async () => {
      const { id, secret } = await newKey();
      const response = await server.as(secret).get("/v1/projects?limit=1");
      expect(response.status).toBe(200);
      const row = await server.auditRow(response.headers.get("x-request-id")!);
      expect(row).toMatchObject({ keyId: id, method: "GET", route: "/v1/projects", path: "/v1/projects", status: 200 });
      expect(row.workspaceId).toMatch(/^ws_/);
      const dump = await server.storage.db.execute(sql`select row_to_json(a)::text as j from audit_log a`);
      expect(dump.rows.map((r) => String(r.j)).join("\n")).not.toContain(secret.slice("svc_live_".length));
    });
  });
});
