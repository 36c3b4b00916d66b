// `pbs mcp` (src/cli/mcp-stdio.ts), started as a desktop client starts an MCP server: the official
// SDK's Client over StdioClientTransport, against a running server's /mcp. The same tools and rules
// as over HTTP (test/mcp.test.ts), because every message is the server's to answer.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteDriver } from "./support/database.ts";
import { freePort } from "./support/net.ts";
import { repoRoot, run } from "./support/process.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const pbs = join(repoRoot, "src/cli/pbs.ts");

/** `pbs mcp` with `args`, and an SDK client connecting to it (`connected` rejects as the client's connect does). */
function stdioClient(
  args: string[],
  env: Record<string, string>,
): { connected: Promise<Client>; stderr: () => string } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [pbs, "mcp", ...args],
    env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "mcp-stdio-test", version: "1.0.0" });
  const connected = client.connect(transport).then(
    () => client,
    async (error: unknown) => {
      await client.close();
      throw error;
    },
  );
  return { connected, stderr: () => stderr };
}

describe("pbs mcp", () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer(pgliteDriver, { workers: true });
    key = await server.createKey({ scopes: ["projects:read", "projects:write"] });
  });
  afterAll(() => server?.stop());

  it("serves the server's tools over stdio with the key from PB_API_KEY, each call a request of the server", async () => {
    const client = await stdioClient(["--url", server.url], { PB_API_KEY: key }).connected;
    expect(client.getServerVersion()).toMatchObject({ name: "project-builder-api" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("createProject");
    expect(tools.map((tool) => tool.name)).not.toContain("createDeployment");
    const created = await client.callTool(
      { name: "createProject", arguments: { body: { name: "From a desktop", prompt: "A clock" } } },
      CallToolResultSchema,
    );
    expect(created.isError).toBeFalsy();
    const project = created.structuredContent as { id: string };
    const read = await client.callTool(
      { name: "getProject", arguments: { project_id: project.id } },
      CallToolResultSchema,
    );
    expect(read.structuredContent).toMatchObject({ id: project.id, name: "From a desktop" });
    const row = await server.auditRow((created._meta as Record<string, string>)["project-builder/request_id"]!);
    expect(row).toMatchObject({ tool: "createProject", status: 201, userAgent: "pbs-mcp" });
    const refused = await client.callTool(
      { name: "createDeployment", arguments: { project_id: project.id } },
      CallToolResultSchema,
    );
    expect(refused).toMatchObject({ isError: true, structuredContent: { error: { code: "insufficient_scope" } } });
    await client.close();
  });

  it("takes a project from its prompt through its run to a ready deployment, wholly through tools", async () => {
    const client = await stdioClient(["--url", server.url], { PB_API_KEY: await server.createKey() }).connected;
    const call = async <T>(name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args }, CallToolResultSchema);
      expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
      return result.structuredContent as T;
    };
    const until = async <T extends { status: string }>(name: string, args: Record<string, unknown>) => {
      for (let tries = 0; ; tries++) {
        const body = await call<T>(name, args);
        if (!["queued", "building", "running"].includes(body.status)) return body;
        if (tries > 300) throw new Error(`${name} did not end: ${JSON.stringify(body)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const project = await call<{ id: string; latest_run_id: string }>("createProject", {
      body: { name: "Desktop build", prompt: "A landing page" },
    });
    expect(await until("getAgentRun", { project_id: project.id, run_id: project.latest_run_id })).toMatchObject({
      status: "succeeded",
    });
    const deployment = await call<{ id: string }>("createDeployment", { project_id: project.id, body: {} });
    expect(await until("getDeployment", { project_id: project.id, deployment_id: deployment.id })).toMatchObject({
      status: "ready",
    });
    expect(await call("getProject", { project_id: project.id })).toMatchObject({
      url: expect.stringMatching(/^http:\/\//),
    });
    await client.close();
  }, 180_000);

  it("answers a refused key as the error of the request that carried it, and says so on standard error", async () => {
    const { connected, stderr } = stdioClient(["--url", server.url, "--key", "svc_live_notAKeyAtAll"], {});
    const refused = await connected.catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).message).toContain("This API key is not valid");
    expect(stderr()).toContain("pbs mcp: 401: This API key is not valid");
  });

  it("says where the server could not be reached", async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const failed = await stdioClient(["--url", unreachable, "--key", key], {}).connected.catch(
      (error: unknown) => error,
    );
    expect(String(failed)).toContain(`could not be reached at ${unreachable}/mcp`);
  });

  it("refuses to start without a key", async () => {
    const result = await run(pbs, ["mcp", "--url", server.url], { PB_API_KEY: "" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--key or PB_API_KEY");
  });
});
