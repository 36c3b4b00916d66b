// A second, independent contract check of the real server: Prism's proxy forwards requests to it and,
// with --errors, turns any request or response that breaks the contract into a failure (it reports
// violations in `sl-violations`). The other suites check responses with openapi-backend; this one
// uses the validator frontend teams meet in the mock.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schemas } from "./support/api-client.ts";
import { freePort } from "./support/net.ts";
import { documentPath, root } from "./support/contract.ts";
import { pgliteDriver } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const prismCli = join(
  dirname(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json")),
  "dist",
  "index.js",
);

describe("the real server behind Prism's validating proxy", () => {
  let server: TestServer;
  let prism: ChildProcess;
  let proxy: string;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer(pgliteDriver);
    key = await server.createKey({ workspace: "proxied" });
    const port = await freePort();
    proxy = `http://127.0.0.1:${port}`;
    prism = spawn(
      process.execPath,
      [prismCli, "proxy", documentPath, server.url, "--errors", "--port", String(port), "--host", "127.0.0.1"],
      {
        cwd: root,
        stdio: "ignore",
      },
    );
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await fetch(`${proxy}/v1/key`, { headers: { Authorization: `Bearer ${key}` } });
        return;
      } catch {
        if (Date.now() > deadline) throw new Error("Prism proxy did not start within 60 s");
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }, 180_000);

  afterAll(async () => {
    prism?.kill("SIGTERM");
    await server?.stop();
  });

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(proxy + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    expect(response.headers.get("sl-violations"), `${method} ${path}: ${text}`).toBeNull();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  it("finds no contract violation in a project's life, its runs, events, usage and errors", async () => {
    const created = await call(
      "POST",
      "/v1/projects",
      { name: "Proxied", prompt: "through Prism" },
      { "Idempotency-Key": "proxy-1" },
    );
    expect(created.status).toBe(201);
    const { id, latest_run_id: run } = created.body as Schemas["Project"];
    expect(
      (
        await call(
          "POST",
          "/v1/projects",
          { name: "Proxied", prompt: "through Prism" },
          { "Idempotency-Key": "proxy-1" },
        )
      ).status,
    ).toBe(201);
    expect((await call("GET", "/v1/projects?limit=1")).status).toBe(200);
    expect((await call("GET", `/v1/projects/${id}`)).status).toBe(200);
    expect((await call("PATCH", `/v1/projects/${id}`, { visibility: "public" })).status).toBe(200);
    expect((await call("GET", `/v1/projects/${id}/runs`)).status).toBe(200);
    expect((await call("POST", `/v1/projects/${id}/runs`, { prompt: "again" })).status).toBe(409);
    expect((await call("POST", `/v1/projects/${id}/runs/${run}/cancel`)).status).toBe(200);
    expect((await call("POST", `/v1/projects/${id}/deployments`, {})).status).toBe(409);
    expect((await call("GET", "/v1/events?limit=5")).status).toBe(200);
    expect((await call("GET", "/v1/billing/usage")).status).toBe(200);
    expect((await call("GET", "/v1/key")).status).toBe(200);
    expect((await call("GET", "/v1/projects/prj_0000000000000000")).status).toBe(404);
    expect((await call("DELETE", `/v1/projects/${id}`)).status).toBe(204);
  });

  it("finds no violation in the server's refusals", async () => {
    const unauthorized = await fetch(`${proxy}/v1/projects`, { headers: { Authorization: "Bearer svc_live_unknown" } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("sl-violations")).toBeNull();
  });
});
