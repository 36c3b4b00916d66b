// The MCP server (src/mcp/), driven by the official SDK's client over streamable HTTP: discovery
// (401 → RFC 9728 metadata → the OAuth issuer), the tools the bearer's scopes allow, a project
// created, built, changed, deployed and its files written and read wholly through tools, and errors
// in the protocol's shape — each call a request of the pipeline, with its rules and its audit row.
// `pbs mcp` (stdio) is test/mcp-stdio.test.ts; hostile messages are the reliability suite's.
import { request as httpRequest } from "node:http";
import { gunzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationMeta, type OperationId } from "../generated/handlers.ts";
import { mcpTools, notTools } from "../generated/mcp-tools.ts";
import { MCP_FILE_LIMIT } from "../src/mcp/tool-calls.ts";
import { addMember } from "../src/domain/members.ts";
import { createAuthorization, newAccessToken, newRefreshToken, saveTokens } from "../src/domain/oauth.ts";
import { createOAuthClient } from "../src/domain/oauth-clients.ts";
import { findWorkspaceBySlug } from "../src/domain/workspaces.ts";
import { PLAN_LIMITS, type Plan, type PlanLimits } from "../src/http/rate-limit/index.ts";
import { expectStatus } from "./support/api-client.ts";
import { document, responseErrors } from "./support/contract.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

/** An SDK client connected to the server's /mcp with `bearer` (none when undefined). */
export async function mcpClient(url: string, bearer: string | undefined): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  const headers: Record<string, string> = bearer ? { Authorization: `Bearer ${bearer}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

type Structured<T> = CallToolResult & { structuredContent: T };

/** Calls a tool, and checks its structured content against the contract's answer at the status the call was answered with. */
async function call<T = unknown>(
  client: Client,
  name: OperationId,
  args: Record<string, unknown> = {},
): Promise<Structured<T>> {
  const result = (await client.callTool({ name, arguments: args }, CallToolResultSchema)) as Structured<T>;
  const status = result._meta?.["project-builder/status"];
  if (typeof status === "number" && result.structuredContent !== undefined)
    expect(await responseErrors(name, status, result.structuredContent), `${name} ${status}`).toEqual([]);
  return result;
}

/** Polls a tool until `done` holds for its answer. */
async function callUntil<T>(
  client: Client,
  name: OperationId,
  args: Record<string, unknown>,
  done: (body: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await call<T>(client, name, args);
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    if (done(result.structuredContent)) return result.structuredContent;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting on ${name}: ${JSON.stringify(result.structuredContent)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ended = (body: { status: string }) => !["queued", "building", "running"].includes(body.status);
const requestIdOf = (result: CallToolResult) => (result._meta as Record<string, string>)["project-builder/request_id"]!;

/** A JSON-RPC answer, as the tests read it. */
type JsonRpcAnswer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

/** Raw POSTs to /mcp, for what the SDK would never send. */
async function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: JsonRpcAnswer | undefined }> {
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text ? (JSON.parse(text) as JsonRpcAnswer) : undefined,
  };
}

onEmbeddedDatabase("MCP server", (driver) => {
  let server: TestServer;
  let key: string;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer(driver, { workers: true });
    key = await server.createKey();
    client = await mcpClient(server.url, key);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  describe("discovery", () => {
    it("answers 401 without a bearer, pointing at its RFC 9728 metadata, which names the OAuth issuer the SDK then finds", async () => {
      const refused = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
      expect(refused.status).toBe(401);
      const metadataUrl = `${server.url}/.well-known/oauth-protected-resource/mcp`;
      expect(refused.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`);
      expect(refused.json).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, data: { error: { code: "missing_api_key" } } },
      });

      const forged = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), {
        Authorization: "Bearer svc_live_forged",
      });
      expect(forged.status).toBe(401);
      expect(forged.headers.get("www-authenticate")).toBe(
        `Bearer error="invalid_token", resource_metadata="${metadataUrl}"`,
      );

      const resource = await discoverOAuthProtectedResourceMetadata(new URL(`${server.url}/mcp`), {
        resourceMetadataUrl: new URL(metadataUrl),
      });
      expect(resource).toMatchObject({
        resource: `${server.url}/mcp`,
        authorization_servers: [server.url],
        bearer_methods_supported: ["header"],
      });
      expect(resource.scopes_supported).toContain("projects:read");
      const issuer = await discoverAuthorizationServerMetadata(new URL(resource.authorization_servers![0]!));
      expect(issuer).toMatchObject({
        issuer: server.url,
        token_endpoint: `${server.url}/oauth/token`,
        code_challenge_methods_supported: ["S256"],
      });
      expect((await fetch(metadataUrl, { method: "OPTIONS" })).headers.get("access-control-allow-origin")).toBe("*");

      // The SDK's client, given no credential, fails to connect with the 401.
      const refusedClient = await mcpClient(server.url, undefined).catch((error: unknown) => error);
      expect(refusedClient).toBeInstanceOf(StreamableHTTPError);
      expect((refusedClient as StreamableHTTPError).code).toBe(401);
    });

    it("negotiates the protocol version and says what it is", async () => {
      expect(client.getServerVersion()).toMatchObject({
        name: "project-builder-api",
        version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      });
      expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
      expect(client.getInstructions()).toContain("body");
      const older = await post(
        server.url,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "x", version: "1" } },
        }),
        {
          Authorization: `Bearer ${key}`,
        },
      );
      expect(older.json?.result?.protocolVersion).toBe("2025-03-26");
      const future = await post(
        server.url,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "initialize",
          params: { protocolVersion: "2099-01-01", capabilities: {}, clientInfo: { name: "x", version: "1" } },
        }),
        {
          Authorization: `Bearer ${key}`,
        },
      );
      expect(future.json?.result?.protocolVersion).toBe("2025-11-25");
      expect(await client.ping()).toEqual({});
    });
  });

  describe("tools", () => {
    it("lists one tool per operation for a full key: every operation of the contract is a tool, served elsewhere, or a stream", async () => {
      const { tools } = await client.listTools();
      const operations = Object.keys(operationMeta).filter((id) => !(id in notTools));
      expect(tools.map((tool) => tool.name).sort()).toEqual(operations.sort());
      const listed = new Set(tools.map((tool) => tool.name));
      for (const item of Object.values(document.paths ?? {})) {
        for (const [method, operation] of Object.entries(item ?? {})) {
          if (!["get", "put", "post", "patch", "delete"].includes(method)) continue;
          const { operationId, "x-served-by": servedBy } = operation as { operationId: string; "x-served-by"?: string };
          if (servedBy === "oauth") continue; // the OAuth server's own endpoints, not the /v1 pipeline's
          expect(listed.has(operationId) || operationId in notTools, operationId).toBe(true);
        }
      }
      expect(notTools).toEqual({ streamEvents: expect.stringContaining("stream of events") });
    });

    it("fits a small context: the full key's tool list is at most 48 KB of JSON, each tool short and standing alone", async () => {
      const answer = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), {
        Authorization: `Bearer ${key}`,
      });
      const size = Buffer.byteLength(JSON.stringify(answer.json?.result));
      console.log(`tools/list for a full key: ${size} bytes of JSON`);
      expect(size).toBeLessThanOrEqual(48 * 1024);

      const { tools } = await client.listTools();
      const createProject = tools.find((tool) => tool.name === "createProject")!;
      expect(createProject.description).toMatch(/^Creates a project and queues its initial agent run/);
      expect(createProject.inputSchema.properties).toHaveProperty("body.required", ["name", "prompt"]);
      expect(createProject.inputSchema.properties).toHaveProperty("body.properties.prompt.type", "string");
      expect(createProject.inputSchema.properties).toHaveProperty("idempotency_key.type", "string");
      expect(createProject.inputSchema.required).toEqual(["body"]);
      const limit = `up to ${MCP_FILE_LIMIT / 1024 / 1024} MiB`;
      expect(tools.find((tool) => tool.name === "downloadFile")!.description).toContain(limit);
      expect(tools.find((tool) => tool.name === "uploadFile")!.description).toContain(limit);
      for (const tool of tools) {
        // One or two sentences on one line; no output schema (an answer is the operation's, as the reference says).
        expect(tool.description!.length, tool.name).toBeLessThanOrEqual(300);
        expect(tool.description, tool.name).not.toContain("\n");
        expect(tool.outputSchema, tool.name).toBeUndefined();
        const text = JSON.stringify(tool.inputSchema);
        expect(text, tool.name).not.toMatch(/"examples?"/);
        // Every reference resolves inside the tool's own schema.
        for (const [, name] of text.matchAll(/"#\/\$defs\/([^"]+)"/g))
          expect((tool.inputSchema as { $defs?: object }).$defs, `${tool.name}: ${name}`).toHaveProperty([name!]);
        expect(text).not.toContain("#/components/");
      }
    });

    it("annotates each tool from its method: GET reads, POST adds, PUT, PATCH and DELETE overwrite or remove and may be repeated", async () => {
      const { tools } = await client.listTools();
      const expected = {
        get: { readOnlyHint: true },
        post: { readOnlyHint: false, destructiveHint: false },
        put: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
        patch: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
        delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
      };
      for (const tool of tools)
        expect(tool.annotations, tool.name).toEqual(expected[operationMeta[tool.name as OperationId].method]);
      expect(tools.find((tool) => tool.name === "deleteProject")!.annotations).toMatchObject({ destructiveHint: true });
    });

    it("sends the tool list gzipped to a client that accepts gzip, the same list with the request's id", async () => {
      const ask = (id: string | number, encoding: string | undefined) =>
        new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
          const headers = {
            Authorization: `Bearer ${key}`,
            "Content-Type": "application/json",
            ...(encoding ? { "Accept-Encoding": encoding } : {}),
          };
          const sent = httpRequest(`${server.url}/mcp`, { method: "POST", headers }, (response) => {
            const chunks: Buffer[] = [];
            response
              .on("data", (chunk: Buffer) => chunks.push(chunk))
              .on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          });
          sent.on("error", reject).end(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" }));
        });
      const plain = await ask(1, undefined);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      for (const id of [7, 'a "quoted" id', "x".repeat(70_000)]) {
        const zipped = await ask(id, "br;q=1, gzip;q=0.8");
        expect(zipped.headers).toMatchObject({
          "content-encoding": "gzip",
          vary: "Accept-Encoding",
          "content-type": "application/json",
        });
        if (id === 7) expect(zipped.body.length).toBeLessThan(plain.body.length / 5);
        const answer = JSON.parse(gunzipSync(zipped.body).toString("utf8"));
        expect(answer).toEqual({ ...JSON.parse(plain.body.toString("utf8")), id });
      }
      expect((await ask(2, "gzip;q=0, identity")).headers["content-encoding"]).toBeUndefined();
    });

    it("lists only the tools a key's scopes allow: a projects:read key sees the project reads and nothing that writes", async () => {
      const reader = await mcpClient(server.url, await server.createKey({ scopes: ["projects:read"] }));
      const { tools } = await reader.listTools();
      const allowed = mcpTools
        .filter(({ tool }) => operationMeta[tool.name].scopes.every((scope) => scope === "projects:read"))
        .map(({ tool }) => tool.name);
      expect(tools.map((tool) => tool.name).sort()).toEqual(allowed.sort());
      expect(allowed).toEqual(
        expect.arrayContaining(["listProjects", "getProject", "listAgentRuns", "getAgentRun", "getCurrentApiKey"]),
      );
      expect(tools.every((tool) => operationMeta[tool.name as OperationId].method === "get")).toBe(true);
      // A tool it does not list is still refused by the pipeline's scope check, not as unknown.
      const refused = await call(reader, "createProject", { body: { name: "x", prompt: "y" } });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ error: { code: "insufficient_scope" } });
      await reader.close();
    });

    it("takes an OAuth access token as a bearer, with its grant's scopes", async () => {
      const workspace = (await findWorkspaceBySlug(server.storage.db, "acme"))!;
      const { client: app } = await createOAuthClient(server.storage.db, {
        name: "Agent",
        redirectUris: ["https://agent.example/callback"],
        public: true,
      });
      const { user } = await addMember(server.storage.db, {
        workspaceId: workspace.id,
        email: `agent-${Date.now()}@example.com`,
        role: "owner",
        password: "a long passphrase here",
      });
      const { grant } = await createAuthorization(server.storage.db, {
        clientId: app.id,
        workspaceId: workspace.id,
        userId: user.id,
        scopes: ["projects:read"],
        redirectUri: "https://agent.example/callback",
      });
      const accessToken = newAccessToken();
      const hour = new Date(Date.now() + 3600_000);
      await saveTokens(server.storage.db, {
        grantId: grant.id,
        accessToken,
        accessTokenExpiresAt: hour,
        scopes: ["projects:read"],
        refreshToken: newRefreshToken(),
        refreshTokenExpiresAt: hour,
      });
      const agent = await mcpClient(server.url, accessToken);
      const { tools } = await agent.listTools();
      expect(tools.map((tool) => tool.name)).toContain("getProject");
      expect(tools.map((tool) => tool.name)).not.toContain("createProject");
      const listed = await call(agent, "listProjects", { limit: 1 });
      expect(listed.isError).toBeFalsy();
      expect((await server.auditRow(requestIdOf(listed))).clientId).toBe(app.id);
      await agent.close();
    });
  });

  describe("a project wholly through tools", () => {
    it("creates, builds, writes and reads files, runs the agent again, deploys, and rolls back", async () => {
      const created = await call(client, "createProject", { body: { name: "Via MCP", prompt: "A todo list app" } });
      expect(created.isError).toBeFalsy();
      expect(created._meta).toMatchObject({ "project-builder/status": 201 });
      const project = created.structuredContent as { id: string; latest_run_id: string };
      expect(JSON.parse((created.content[0] as { text: string }).text)).toEqual(project);
      const firstRun = await callUntil<{ status: string }>(
        client,
        "getAgentRun",
        { project_id: project.id, run_id: project.latest_run_id },
        ended,
      );
      expect(firstRun.status).toBe("succeeded");

      // Files: a text file and a binary one go up as the upload's parts, and come back as resources.
      const note = await call(client, "uploadFile", {
        project_id: project.id,
        body: { path: "docs/note.md", file: { text: "# Hello\n\nWritten by an agent. ✓" } },
      });
      expect(note.isError, JSON.stringify(note.structuredContent)).toBeFalsy();
      expect(note.structuredContent).toMatchObject({
        path: "docs/note.md",
        size_bytes: Buffer.byteLength("# Hello\n\nWritten by an agent. ✓"),
      });
      const pixel = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
      const image = await call(client, "uploadFile", {
        project_id: project.id,
        body: { path: "img/pixel.png", file: { content_base64: pixel.toString("base64"), content_type: "image/png" } },
      });
      expect(image.isError, JSON.stringify(image.structuredContent)).toBeFalsy();
      const noteId = (note.structuredContent as { id: string }).id;
      const imageId = (image.structuredContent as { id: string }).id;
      const text = await call(client, "downloadFile", { project_id: project.id, file_id: noteId });
      expect(text.content).toEqual([
        {
          type: "resource",
          resource: {
            uri: `${server.url}/v1/projects/${project.id}/files/${noteId}/content`,
            mimeType: "text/markdown",
            _meta: { "project-builder/filename": "note.md" },
            text: "# Hello\n\nWritten by an agent. ✓",
          },
        },
      ]);
      const binary = await call(client, "downloadFile", { project_id: project.id, file_id: imageId });
      expect(binary.content[0]).toMatchObject({
        type: "resource",
        resource: { mimeType: "image/png", blob: pixel.toString("base64") },
      });
      const listed = await call<{ data: { path: string }[] }>(client, "listFiles", {
        project_id: project.id,
        limit: 100,
      });
      expect(listed.structuredContent.data.map((file) => file.path)).toEqual(
        expect.arrayContaining(["docs/note.md", "img/pixel.png"]),
      );
      const removed = await call(client, "deleteFile", { project_id: project.id, file_id: imageId });
      expect(removed).toMatchObject({
        content: [{ type: "text", text: "Done: the API answered 204 with no body." }],
        _meta: { "project-builder/status": 204 },
      });

      const triggered = await call<{ id: string }>(client, "triggerAgentRun", {
        project_id: project.id,
        body: { prompt: "Add a footer" },
      });
      expect(triggered._meta).toMatchObject({ "project-builder/status": 202 });
      const run = await callUntil<{ id: string; status: string }>(
        client,
        "getAgentRun",
        { project_id: project.id, run_id: triggered.structuredContent.id },
        ended,
      );
      expect(run.status).toBe("succeeded");

      const first = await call<{ id: string }>(client, "createDeployment", {
        project_id: project.id,
        body: { run_id: project.latest_run_id },
      });
      expect(first.isError, JSON.stringify(first.structuredContent)).toBeFalsy();
      expect(
        await callUntil<{ status: string }>(
          client,
          "getDeployment",
          { project_id: project.id, deployment_id: first.structuredContent.id },
          ended,
        ),
      ).toMatchObject({ status: "ready" });
      const second = await call<{ id: string }>(client, "createDeployment", {
        project_id: project.id,
        body: { run_id: run.id },
      });
      expect(
        await callUntil<{ status: string }>(
          client,
          "getDeployment",
          { project_id: project.id, deployment_id: second.structuredContent.id },
          ended,
        ),
      ).toMatchObject({ status: "ready" });
      const rolledBack = await call(client, "rollbackDeployment", {
        project_id: project.id,
        deployment_id: first.structuredContent.id,
      });
      expect(rolledBack.isError, JSON.stringify(rolledBack.structuredContent)).toBeFalsy();
      const live = await callUntil<{ url?: string }>(
        client,
        "getProject",
        { project_id: project.id },
        (body) => body.url !== undefined,
      );
      expect(live.url).toMatch(/^http:\/\//);

      // Each call is a row of the audit log: the operation's request, with the tool's name.
      const row = await server.auditRow(requestIdOf(created));
      expect(row).toMatchObject({
        tool: "createProject",
        method: "POST",
        route: "/v1/projects",
        path: "/v1/projects",
        status: 201,
      });
    }, 120_000);
  });

  describe("the pipeline's rules, for tool calls too", () => {
    it("replays a call with the same idempotency_key, and generates a key for each call without one", async () => {
      const args = {
        body: { name: "Once", prompt: "Only once" },
        idempotency_key: `mcp-test-${driver.name}-${Date.now()}`,
      };
      const first = await call<{ id: string }>(client, "createProject", args);
      const again = await call<{ id: string }>(client, "createProject", args);
      expect(again.structuredContent.id).toBe(first.structuredContent.id);
      const reused = await call(client, "createProject", {
        ...args,
        body: { name: "Other", prompt: "Something else" },
      });
      expect(reused).toMatchObject({
        isError: true,
        structuredContent: { error: { code: "idempotency_key_reused", param: "Idempotency-Key" } },
      });
      const a = await call<{ id: string }>(client, "createProject", { body: { name: "Twice", prompt: "p" } });
      const b = await call<{ id: string }>(client, "createProject", { body: { name: "Twice", prompt: "p" } });
      expect(a.structuredContent.id).not.toBe(b.structuredContent.id);
    });

    it("answers the API's refusals as isError with its error object, as the contract gives it", async () => {
      const missing = await call(client, "getProject", { project_id: "prj_doesNotExist123" });
      expect(missing).toMatchObject({
        isError: true,
        structuredContent: { error: { code: "not_found" } },
        _meta: { "project-builder/status": 404 },
      });
      expect(JSON.parse((missing.content[0] as { text: string }).text)).toEqual(missing.structuredContent);
      const wrongType = await call(client, "listProjects", { limit: "many" });
      expect(wrongType.structuredContent).toMatchObject({ error: { code: "invalid_request", param: "limit" } });
      const badBody = await call(client, "createProject", { body: { name: 42, prompt: "x" } });
      expect(badBody.structuredContent).toMatchObject({ error: { code: "invalid_request", param: "name" } });
      const unknownField = await call(client, "createProject", { body: { name: "x", prompt: "y", owner: "me" } });
      expect(unknownField.structuredContent).toMatchObject({ error: { code: "invalid_request", param: "owner" } });
      const noBody = await call(client, "createProject", {});
      expect(noBody.structuredContent).toMatchObject({ error: { code: "invalid_request" } });
      const unknownArgument = await call(client, "getProject", { project_id: "prj_doesNotExist123", verbose: true });
      expect(unknownArgument.structuredContent).toMatchObject({ error: { code: "invalid_request", param: "verbose" } });
      const missingPath = await call(client, "getProject", {});
      expect(missingPath.structuredContent).toMatchObject({ error: { code: "invalid_request", param: "project_id" } });
      const dotSegment = await call(client, "getFile", { project_id: "prj_doesNotExist123", file_id: ".." });
      expect(dotSegment.structuredContent).toMatchObject({ error: { code: "invalid_request", param: "file_id" } });
      const notBase64 = await call(client, "uploadFile", {
        project_id: "prj_doesNotExist123",
        body: { path: "a.txt", file: { content_base64: "not base64!" } },
      });
      expect(notBase64.structuredContent).toMatchObject({
        error: { code: "invalid_request", param: "body.file.content_base64" },
      });
    });

    it("carries files of at most 1 MiB each way, and says to use HTTP for larger ones", async () => {
      const project = (
        await call<{ id: string }>(client, "createProject", { body: { name: "Big files", prompt: "x" } })
      ).structuredContent;
      const big = "b".repeat(1024 * 1024 + 1);
      const upload = await call(client, "uploadFile", {
        project_id: project.id,
        body: { path: "big.txt", file: { text: big } },
      });
      expect(upload).toMatchObject({
        isError: true,
        structuredContent: { error: { code: "payload_too_large", param: "body.file" } },
      });
      const form = new FormData();
      form.append("path", "big.txt");
      form.append("file", new Blob([big], { type: "text/plain" }), "big.txt");
      const uploaded = await server.as(key).request("POST", `/v1/projects/${project.id}/files`, { raw: form });
      expectStatus(uploaded, 201);
      const download = await call(client, "downloadFile", { project_id: project.id, file_id: uploaded.body.id });
      expect(download).toMatchObject({
        isError: true,
        structuredContent: { error: { code: "payload_too_large" } },
        _meta: { "project-builder/status": 413 },
      });
      expect((download.structuredContent as { error: { message: string } }).error.message).toContain(
        "Download it over HTTP",
      );
      expect(await server.auditRow(requestIdOf(download))).toMatchObject({ tool: "downloadFile", status: 413 });
    });

    it("names and types a downloaded file as the API keeps it, not as its extension would guess", async () => {
      const project = (
        await call<{ id: string }>(client, "createProject", { body: { name: "Named files", prompt: "x" } })
      ).structuredContent;
      const form = new FormData();
      form.append("path", "assets/logo.bin");
      form.append("file", new Blob(["<svg/>"], { type: "image/svg+xml" }), "ignored.txt");
      const logo = await server.as(key).request("POST", `/v1/projects/${project.id}/files`, { raw: form });
      expectStatus(logo, 201);
      const download = await call(client, "downloadFile", { project_id: project.id, file_id: logo.body.id });
      expect(download.content).toEqual([
        {
          type: "resource",
          resource: {
            uri: `${server.url}/v1/projects/${project.id}/files/${logo.body.id}/content`,
            mimeType: "image/svg+xml",
            _meta: { "project-builder/filename": "logo.bin" },
            text: "<svg/>",
          },
        },
      ]);
      // Over HTTP the same name is the Content-Disposition's, and the contract's type is octet-stream.
      const http = await fetch(`${server.url}/v1/projects/${project.id}/files/${logo.body.id}/content`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(http.headers.get("content-disposition")).toBe('attachment; filename="logo.bin"');
      expect(http.headers.get("content-type")).toBe("application/octet-stream");
      expect(await http.text()).toBe("<svg/>");
    });

    it("uploads a file whose filename and media type no multipart header could carry, as the API's rules say", async () => {
      const project = (
        await call<{ id: string }>(client, "createProject", { body: { name: "Odd names", prompt: "x" } })
      ).structuredContent;
      // No path: the path comes from the filename, sanitised as an HTTP upload's is.
      const odd = await call<{ id: string; path: string; content_type: string }>(client, "uploadFile", {
        project_id: project.id,
        body: { file: { text: "quoted", filename: 'Ré"sumé (final)\r\n.md', content_type: "text/markdown" } },
      });
      expect(odd.isError, JSON.stringify(odd.structuredContent)).toBeFalsy();
      expect(odd.structuredContent).toMatchObject({ path: "Re_sume_final_.md", content_type: "text/markdown" });
      // A media type the contract cannot hold is stored as application/octet-stream, as over HTTP.
      const injected = await call<{ path: string; content_type: string }>(client, "uploadFile", {
        project_id: project.id,
        body: {
          path: "x.txt",
          file: { text: "plain", filename: 'a\\b"c', content_type: "text/plain\r\nX-Injected: 1" },
        },
      });
      expect(injected.structuredContent).toMatchObject({ path: "x.txt", content_type: "application/octet-stream" });
      const back = await call(client, "downloadFile", { project_id: project.id, file_id: odd.structuredContent.id });
      expect(back.content[0]).toMatchObject({
        type: "resource",
        resource: {
          mimeType: "text/markdown",
          _meta: { "project-builder/filename": "Re_sume_final_.md" },
          text: "quoted",
        },
      });
      // The parts are told apart by their fingerprint, as an HTTP upload's are: the same call replays.
      const idempotencyKey = `mcp-upload-${driver.name}-${Date.now()}`;
      const keyed = (text: string) =>
        call<{ id: string }>(client, "uploadFile", {
          project_id: project.id,
          body: { path: "keyed.txt", file: { text, filename: 'k"ey' } },
          idempotency_key: idempotencyKey,
        });
      const first = await keyed("once");
      expect((await keyed("once")).structuredContent.id).toBe(first.structuredContent.id);
      expect((await keyed("other")).structuredContent).toMatchObject({ error: { code: "idempotency_key_reused" } });
      // A NUL stays refused: no name the answer repeats or the database keeps may hold one.
      const nul = await call(client, "uploadFile", {
        project_id: project.id,
        body: { path: "y.txt", file: { text: "n", filename: "a\u0000.txt" } },
      });
      expect(nul.structuredContent).toMatchObject({ error: { code: "invalid_request", param: "body.file.filename" } });
    });

    it("refuses an unknown tool and malformed params as protocol errors", async () => {
      const unknown = await client.callTool({ name: "dropDatabase", arguments: {} }).catch((error: unknown) => error);
      expect(unknown).toBeInstanceOf(McpError);
      expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
      const authorization = { Authorization: `Bearer ${key}` };
      const notAnObject = await post(
        server.url,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "getProject", arguments: ["prj_x"] },
        }),
        authorization,
      );
      expect(notAnObject).toMatchObject({ status: 200, json: { jsonrpc: "2.0", id: 7, error: { code: -32602 } } });
      const method = await post(
        server.url,
        JSON.stringify({ jsonrpc: "2.0", id: "m", method: "resources/list" }),
        authorization,
      );
      expect(method.json).toMatchObject({ id: "m", error: { code: -32601 } });
    });

    it("answers malformed JSON-RPC in its error shape, never 500", async () => {
      const authorization = { Authorization: `Bearer ${key}` };
      const cases: Array<[string, Record<string, string>, number, number | undefined]> = [
        ["{", authorization, 400, -32700],
        ["", authorization, 400, -32700],
        [JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }]), authorization, 400, -32600],
        [JSON.stringify({ id: 1, method: "ping" }), authorization, 400, -32600],
        [JSON.stringify({ jsonrpc: "2.0", id: null, method: "ping" }), authorization, 400, -32600],
        [JSON.stringify({ jsonrpc: "2.0", id: {}, method: "ping" }), authorization, 400, -32600],
        [JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }), authorization, 400, -32600],
        [JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: [] }), authorization, 200, -32602],
        [
          JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
          { ...authorization, "Content-Type": "text/plain" },
          415,
          -32600,
        ],
        [
          JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
          { ...authorization, "MCP-Protocol-Version": "1999-01-01" },
          400,
          -32600,
        ],
        [
          JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(3 * 1024 * 1024) } }),
          authorization,
          413,
          -32600,
        ],
        [JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), authorization, 202, undefined],
      ];
      for (const [body, headers, status, code] of cases) {
        const answer = await post(server.url, body, headers);
        expect(answer.status, body.slice(0, 80)).toBe(status);
        if (code !== undefined)
          expect(answer.json, body.slice(0, 80)).toMatchObject({ jsonrpc: "2.0", error: { code } });
        else expect(answer.json).toBeUndefined();
      }
      for (const method of ["GET", "DELETE", "PUT"]) {
        const answer = await fetch(`${server.url}/mcp`, { method, headers: authorization });
        expect(answer.status).toBe(405);
        expect(answer.headers.get("allow")).toBe("POST");
        await answer.body?.cancel();
      }
    });

    it("records a refused message as a request to /mcp, and the protocol's answered messages not at all", async () => {
      const send = (body: string) =>
        fetch(`${server.url}/mcp`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body,
        });
      const refused = await send("{");
      expect(refused.status).toBe(400);
      await refused.body?.cancel();
      expect(await server.auditRow(refused.headers.get("x-request-id")!)).toMatchObject({
        method: "POST",
        route: "/mcp",
        path: "/mcp",
        status: 400,
        tool: null,
      });
      const listed = await send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
      expect(listed.status).toBe(200);
      await listed.body?.cancel();
      await server.app.flushAudit();
      await expect(server.auditRow(listed.headers.get("x-request-id")!)).rejects.toThrow("no audit row");
    });
  });
});

describe("MCP server: limits", () => {
  let server: TestServer;
  const tight = Object.fromEntries(
    Object.keys(PLAN_LIMITS).map((plan) => [
      plan,
      plan === "free" ? { perMinute: 3, burst: 3 } : { perMinute: 100_000, burst: 100_000 },
    ]),
  ) as Record<Plan, PlanLimits>;

  beforeAll(async () => {
    const [pglite] = (await import("./support/database.ts")).storageDrivers();
    server = await startTestServer(pglite!, { rateLimitPlans: tight, unauthenticatedLimit: { limit: 3 } });
  });
  afterAll(() => server?.stop());

  it("charges each tool call to the key's rate limit, refused as isError 429", async () => {
    const agent = await mcpClient(server.url, await server.createKey({ workspace: "small", plan: "free" }));
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await call(agent, "listProjects", {}));
    expect(results.slice(0, 3).every((result) => !result.isError)).toBe(true);
    expect(results[3]).toMatchObject({
      isError: true,
      structuredContent: { error: { code: "key_rate_limited" } },
      _meta: { "project-builder/status": 429 },
    });
    // The protocol's own messages are not charged.
    expect((await agent.listTools()).tools.length).toBeGreaterThan(0);
    await agent.close();
  });

  it("counts failed authentications at /mcp against the address, past the limit 429 before any database work", async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: i, method: "ping" }), {
            Authorization: "Bearer svc_live_nope",
          })
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const limited = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }));
    expect(limited).toMatchObject({
      status: 429,
      json: { error: { code: -32000, data: { error: { code: "ip_rate_limited" } } } },
    });
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
