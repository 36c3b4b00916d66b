// TRUST_PROXY over HTTP: the audit log's IP is the socket's peer unless the server is told to
// believe X-Forwarded-For, and then only as far as the configured proxies go.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteDriver } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

describe("the audit log's client address", () => {
  const servers: TestServer[] = [];
  let untrusting: TestServer;
  let trusting: TestServer;
  beforeAll(async () => {
    untrusting = await startTestServer(pgliteDriver);
    trusting = await startTestServer(pgliteDriver, { trustProxy: { hops: 1 } });
    servers.push(untrusting, trusting);
  });
  afterAll(() => Promise.all(servers.map((server) => server.stop())));

  it("is the socket's address when TRUST_PROXY is off, whatever X-Forwarded-For claims", async () => {
    const response = await untrusting.client.get("/v1/key", { headers: { "X-Forwarded-For": "203.0.113.9" } });
    expect((await untrusting.auditRow(response.headers.get("x-request-id")!)).ip).toBe("127.0.0.1");
  });

  it("is the right-most X-Forwarded-For entry behind one trusted proxy, for refused requests too", async () => {
    const ok = await trusting.client.get("/v1/key", { headers: { "X-Forwarded-For": "198.51.100.1, 203.0.113.9" } });
    expect((await trusting.auditRow(ok.headers.get("x-request-id")!)).ip).toBe("203.0.113.9");
    const refused = await trusting
      .as("svc_live_unknown")
      .get("/v1/key", { headers: { "X-Forwarded-For": "203.0.113.10" } });
    expect(refused.status).toBe(401);
    expect((await trusting.auditRow(refused.headers.get("x-request-id")!)).ip).toBe("203.0.113.10");
    const direct = await trusting.client.get("/v1/key");
    expect((await trusting.auditRow(direct.headers.get("x-request-id")!)).ip).toBe("127.0.0.1");
  });
});
