// The bridge against a stand-in for the server's /mcp that answers each way the streamable HTTP
// transport allows (JSON, an event stream, 202) and each way it can fail (a refusal of the HTTP
// request, an answer that is not JSON, no server at all): every request the client sends is
// answered with its id. The bin's refusals of its own arguments and environment, too. Against the
// real server, installed from its tarball: test/packages.test.ts.
import { execFile } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBridge, version } from "./index.ts";

interface Seen {
  readonly headers: IncomingHttpHeaders;
  readonly body: { id?: unknown; method?: string };
}

let server: Server;
let url: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as Seen["body"];
      seen.push({ headers: request.headers, body });
      const json = (status: number, answer: unknown, headers: Record<string, string> = {}) =>
        response.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(answer));
      switch (body.method) {
        case "initialize":
          return json(
            200,
            { jsonrpc: "2.0", id: body.id, result: { protocolVersion: "2025-06-18", capabilities: {} } },
            { "Mcp-Session-Id": "session-1" },
          );
        case "notifications/initialized":
          return response.writeHead(202).end();
        case "tools/call":
          // A progress notification, then the answer, as an event stream.
          response.writeHead(200, { "Content-Type": "text/event-stream" });
          response.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress" })}\n\n`);
          return response.end(
            `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result: {} })}\n\n`,
          );
        case "refused":
          return json(429, { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Slow down." } });
        case "broken":
          return response.writeHead(502, { "Content-Type": "text/html" }).end("<h1>Bad gateway</h1>");
        default:
          return json(200, { jsonrpc: "2.0", id: body.id, result: {} });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs the bridge over `messages` (each a line) to `to`, and what it wrote and logged. */
async function bridge(to: string, messages: unknown[]): Promise<{ written: unknown[]; logged: string[] }> {
  const written: unknown[] = [];
  const logged: string[] = [];
  // In chunks that split lines, as a pipe delivers them.
  const text = messages.map((message) => `${JSON.stringify(message)}\r\n`).join("");
  const input = (async function* () {
    for (let at = 0; at < text.length; at += 7) yield new TextEncoder().encode(text.slice(at, at + 7));
  })();
  await runBridge({
    url: to,
    key: "svc_test_bridge",
    input,
    write: (line) => written.push(JSON.parse(line)),
    log: (line) => logged.push(line),
  });
  return { written, logged };
}

describe("runBridge", () => {
  it("forwards each message with the key, and after initialize the protocol version and session it set", async () => {
    seen.length = 0;
    const { written, logged } = await bridge(url, [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18" } },
    ]);
    expect(written).toEqual([{ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18", capabilities: {} } }]);
    expect(logged).toEqual([]);
    expect(seen[0]!.headers).toMatchObject({
      authorization: "Bearer svc_test_bridge",
      "user-agent": `project-builder-mcp/${version}`,
      accept: "application/json, text/event-stream",
    });
    expect(seen[0]!.headers["mcp-protocol-version"]).toBeUndefined();
  });

  it("answers JSON, event streams and notifications as the server does", async () => {
    seen.length = 0;
    const written: unknown[] = [];
    // initialize first, answered before the rest is sent, as a client waits for it.
    const input = (async function* () {
      yield `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })}\n`;
      while (written.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      yield `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`;
      yield `${JSON.stringify({ jsonrpc: "2.0", id: "call", method: "tools/call", params: {} })}\n`;
    })();
    await runBridge({
      url,
      key: "k",
      input,
      write: (line) => written.push(JSON.parse(line)),
    });
    expect(written).toEqual([
      expect.objectContaining({ id: 1 }),
      { jsonrpc: "2.0", method: "notifications/progress" },
      { jsonrpc: "2.0", id: "call", result: {} },
    ]);
    expect(seen.slice(1).map((message) => message.headers)).toEqual([
      expect.objectContaining({ "mcp-protocol-version": "2025-06-18", "mcp-session-id": "session-1" }),
      expect.objectContaining({ "mcp-protocol-version": "2025-06-18", "mcp-session-id": "session-1" }),
    ]);
  });

  it("answers a request the server refuses or garbles with its id, and says why on its log", async () => {
    const { written, logged } = await bridge(url, [
      { jsonrpc: "2.0", id: 7, method: "refused" },
      { jsonrpc: "2.0", id: 8, method: "broken" },
      { jsonrpc: "2.0", method: "broken" },
    ]);
    expect(written).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: 7, error: { code: -32000, message: "Slow down." } },
        { jsonrpc: "2.0", id: 8, error: { code: -32603, message: "The server answered 502 without JSON." } },
      ]),
    );
    expect(written).toHaveLength(2);
    expect(logged).toEqual(
      expect.arrayContaining([
        "429: Slow down.",
        "the server answered 502 with something other than a JSON-RPC message",
      ]),
    );
  });

  it("answers every request when there is no server, and ends when its input does", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { written, logged } = await bridge(nowhere, [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]);
    expect(written).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32000, message: `The server could not be reached at ${nowhere}/mcp.` },
      },
    ]);
    expect(logged[0]).toMatch(/^could not reach http:\/\/127\.0\.0\.1:\d+\/mcp: .*ECONNREFUSED/);
  });

  it("refuses a URL that is not http(s)", async () => {
    await expect(runBridge({ url: "localhost:8080", key: "k", input: (async function* () {})() })).rejects.toThrow(
      '"localhost:8080" is not an http:// or https:// URL',
    );
  });
});

describe("project-builder-mcp", () => {
  const cli = join(import.meta.dirname, "cli.ts");
  const run = async (args: string[], env: Record<string, string>) => {
    const environment = { ...process.env, ...env };
    if (!("PROJECT_BUILDER_API_KEY" in env)) delete environment.PROJECT_BUILDER_API_KEY;
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, ...args], { env: environment });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
      return { code, stdout, stderr };
    }
  };

  it("refuses to start without a key: one line on standard error, exit code 1", async () => {
    for (const key of [{}, { PROJECT_BUILDER_API_KEY: " " }] as Record<string, string>[]) {
      const ran = await run(["--url", url], key);
      expect(ran).toEqual({
        code: 1,
        stdout: "",
        stderr:
          "project-builder-mcp: set PROJECT_BUILDER_API_KEY to an API key (svc_live_… or svc_test_…) or an OAuth access token.\n",
      });
    }
  });

  it("refuses an unknown flag and a URL it cannot use with exit code 2, and shows its usage on standard error", async () => {
    const key = { PROJECT_BUILDER_API_KEY: "svc_test_x" };
    expect(await run(["--key", "x"], key)).toMatchObject({
      code: 2,
      stdout: "",
      stderr: expect.stringContaining("Usage:"),
    });
    expect(await run(["--url", "ftp://example.com"], key)).toEqual({
      code: 2,
      stdout: "",
      stderr: 'project-builder-mcp: --url: "ftp://example.com" is not an http:// or https:// URL\n',
    });
    expect(await run(["--help"], {})).toMatchObject({ code: 0, stdout: "", stderr: expect.stringContaining("--url") });
  });
});
