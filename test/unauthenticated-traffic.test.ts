// Unauthenticated traffic limited per client address (src/http/address-limit.ts), over HTTP: the
// failures counted (no key, a bad key, an unknown route, a wrong method), the 429 ip_rate_limited
// in the contract's shape with the address's window in the rate-limit headers, every valid key still
// served from the refused address (after a restart too, and keys without a checksum), the window's
// end, and addresses told apart through X-Forwarded-For when TRUST_PROXY says so. (That random keys
// cost no database statement is pinned in test/statement-counts.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { ensureWorkspace } from "../src/domain/workspaces.ts";
import { createLogger } from "../src/logger.ts";
import { randomBase62 } from "../src/storage/ids.ts";
import { createApiClient, expectApiError, type ApiResponse } from "./support/api-client.ts";
import { pgliteDriver } from "./support/database.ts";
import { insertLegacyKey } from "./support/legacy-keys.ts";
import { startTestServer, suiteServer, type TestServer } from "./support/server.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A random string shaped like a key, as a client trying keys (or a broken one) sends. */
const bogusKey = (i: number) => `svc_live_${randomBase62(46 - String(i).length)}${i}`;

function expectAddressLimited(response: ApiResponse, limit: number, windowSeconds: number): void {
  expectApiError(response, 429, "ip_rate_limited");
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(response.headers.get("ratelimit-policy")).toBe(`"address";q=${limit};w=${windowSeconds}`);
  expect(response.headers.get("ratelimit")).toBe(`"address";r=0;t=${retryAfter}`);
  expect(response.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(response.headers.get("x-ratelimit-used")).toBe(String(limit));
}

/**
 * The window of the cases that never wait for its end: long enough that a loaded machine (test files
 * in parallel) never sees it turn in the middle of a case, which would reset the count.
 */
const LONG_WINDOW_SECONDS = 120;
/**
 * The window of the case that waits for its end: short, yet long enough for the requests made within
 * it on a loaded machine (the case checks that they all fell in one window).
 */
const SHORT_WINDOW_SECONDS = 6;

describe("unauthenticated traffic, limited per client address", () => {
  let server: TestServer;
  let shortWindow: TestServer;
  beforeAll(async () => {
    const trustProxy = { hops: 1 };
    server = await startTestServer(pgliteDriver, {
      unauthenticatedLimit: { limit: 4, windowSeconds: LONG_WINDOW_SECONDS },
      trustProxy,
    });
    shortWindow = await startTestServer(pgliteDriver, {
      unauthenticatedLimit: { limit: 4, windowSeconds: SHORT_WINDOW_SECONDS },
      trustProxy,
    });
  });
  afterAll(() => Promise.all([server?.stop(), shortWindow?.stop()]));

  /** A client whose requests come, as far as the server (default: the long window's) can tell, from `address`. */
  const from = (address: string, key: string | null, on: TestServer = server) => {
    const client = on.as(key);
    const headers = { "X-Forwarded-For": address };
    return {
      get: (path: string) => client.get(path, { headers }),
      request: (method: string, path: string) => client.request(method, path, { headers }),
    };
  };

  it("counts every kind of failure before a key is identified, then answers 429 ip_rate_limited", async () => {
    const address = "203.0.113.1";
    const failures = [
      await from(address, null).get("/v1/projects"), // no Authorization
      await from(address, "svc_live_notakey").get("/v1/projects"), // unknown key
      await from(address, null).get("/v1/no-such-route"), // unknown route
      await from(address, null).request("PUT", "/v1/projects"), // a method the route lacks
    ];
    expect(failures.map((response) => response.status)).toEqual([401, 401, 404, 405]);
    // The fifth, of any of these kinds, is refused before any lookup.
    expectAddressLimited(await from(address, "svc_live_another").get("/v1/projects"), 4, LONG_WINDOW_SECONDS);
    expectAddressLimited(await from(address, null).get("/v1/key"), 4, LONG_WINDOW_SECONDS);
    expectAddressLimited(await from(address, null).get("/v1/no-such-route"), 4, LONG_WINDOW_SECONDS);
    // Another address is not affected.
    expect((await from("203.0.113.2", null).get("/v1/projects")).status).toBe(401);
  });

  it("does not count what an identified key is refused (a missing scope) or a lookup that found nothing", async () => {
    const address = "203.0.113.3";
    const readOnly = await server.createKey({ scopes: ["projects:read"] });
    for (let i = 0; i < 6; i++) {
      expect((await from(address, readOnly).request("DELETE", "/v1/projects/prj_8kF2mQ9xLp3vR7tZ")).status).toBe(401); // insufficient_scope
      expect((await from(address, readOnly).get("/v1/projects/prj_8kF2mQ9xLp3vR7tZ")).status).toBe(404);
    }
    expect((await from(address, null).get("/v1/projects")).status).toBe(401);
  });

  it("serves every valid key from a refused address: known, never seen, or without a checksum", async () => {
    const address = "203.0.113.4";
    const { workspace } = await ensureWorkspace(server.storage.db, { slug: "neighbours" });
    const known = await server.createKey({ workspace: "neighbours" });
    const unseen = await server.createKey({ workspace: "neighbours" });
    // Inserted while the server runs (as a replica of an earlier version would): it hears of it.
    const legacy = await insertLegacyKey(server.storage.db, workspace.id);
    expect((await from(address, known).get("/v1/key")).status).toBe(200); // now in the server's memory
    for (let i = 0; i < 4; i++) await from(address, bogusKey(i)).get("/v1/projects");
    expectAddressLimited(await from(address, bogusKey(5)).get("/v1/projects"), 4, LONG_WINDOW_SECONDS);
    expectAddressLimited(await from(address, null).get("/v1/projects"), 4, LONG_WINDOW_SECONDS);
    for (const key of [known, unseen, legacy]) {
      const served = await from(address, key).get("/v1/key");
      expect(served.status).toBe(200);
      expect(served.headers.get("ratelimit-policy")).toMatch(/^"default";/); // the key's own limits
    }
    // A revoked or unknown key is still a failure of that address, and refused as such.
    const tampered = unseen.slice(0, -1) + (unseen.endsWith("x") ? "y" : "x");
    expectAddressLimited(await from(address, tampered).get("/v1/key"), 4, LONG_WINDOW_SECONDS);
  });

  it("serves a valid key from a refused address after a restart, which forgets every key", async () => {
    const address = "203.0.113.6";
    const { workspace } = await ensureWorkspace(server.storage.db, { slug: "restarted" });
    const used = await server.createKey({ workspace: "restarted" });
    expect((await from(address, used).get("/v1/key")).status).toBe(200);
    const legacyBefore = await insertLegacyKey(server.storage.db, workspace.id);
    // A fresh process on the same database: the server restarted, or another replica.
    const restarted = await createApp({
      storage: server.storage,
      logger: createLogger({ level: "silent" }),
      work: server.jobs,
      apps: server.apps,
      webhookTargets: server.webhookTargets,
      cursorSecret: "test-cursor-secret-0123456789",
      publicUrl: server.url,
      csrfSecret: "test-csrf-secret-0123456789",
      unauthenticatedLimit: { limit: 4, windowSeconds: LONG_WINDOW_SECONDS },
      trustProxy: { hops: 1 },
    });
    try {
      const url = await restarted.listen(0, "127.0.0.1");
      const on = (key: string | null) => createApiClient(url, key ?? undefined);
      const headers = { "X-Forwarded-For": address };
      for (let i = 0; i < 4; i++) await on(bogusKey(i)).get("/v1/projects", { headers });
      expectAddressLimited(await on(null).get("/v1/projects", { headers }), 4, LONG_WINDOW_SECONDS);
      const legacyAfter = await insertLegacyKey(server.storage.db, workspace.id);
      const created = await server.createKey({ workspace: "restarted" });
      for (const key of [used, legacyBefore, legacyAfter, created])
        expect((await on(key).get("/v1/key", { headers })).status).toBe(200);
    } finally {
      await restarted.stop();
    }
  });

  it("refuses an address until its window ends, then counts afresh", async () => {
    const address = "203.0.113.7";
    const start = Date.now();
    for (let i = 0; i < 4; i++) await from(address, null, shortWindow).get("/v1/projects");
    const refused = await from(address, null, shortWindow).get("/v1/projects");
    expectAddressLimited(refused, 4, SHORT_WINDOW_SECONDS);
    // All of the above within one window, or the refusal above would not have been one.
    expect(Date.now() - start).toBeLessThan(SHORT_WINDOW_SECONDS * 1000);

    await sleep(Number(refused.headers.get("retry-after")) * 1000 + 100);
    expect((await from(address, null, shortWindow).get("/v1/projects")).status).toBe(401);
  });

  it("records the refusals in the audit log, under the client's address", async () => {
    const address = "203.0.113.5";
    for (let i = 0; i < 4; i++) await from(address, null).get("/v1/projects");
    const refused = await from(address, null).get("/v1/projects");
    expect(refused.status).toBe(429);
    expect(await server.auditRow(refused.headers.get("x-request-id")!)).toMatchObject({
      ip: address,
      status: 429,
      route: "/v1/projects",
    });
  });
});

describe("the per-address limit without TRUST_PROXY", () => {
  const server = suiteServer(pgliteDriver, { unauthenticatedLimit: { limit: 3 } });

  it("counts by the socket's address: X-Forwarded-For cannot spread a flood over made-up addresses", async () => {
    expect((await server.client.get("/v1/key")).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect(
        (await server.as(`svc_live_random${i}`).get("/v1/key", { headers: { "X-Forwarded-For": `198.51.100.${i}` } }))
          .status,
      ).toBe(401);
    }
    expectAddressLimited(
      await server.as("svc_live_random9").get("/v1/key", { headers: { "X-Forwarded-For": "198.51.100.9" } }),
      3,
      60,
    );
    // The key used before the flood is in the server's memory, and still served.
    expect((await server.client.get("/v1/key")).status).toBe(200);
  });
});
