// The request rules of the pipeline over HTTP, on the embedded database: unknown routes, wrong
// methods, body size, content types, malformed JSON and paths, bugs (500 without a stack, which is
// logged instead), the request id on every error, the audit of every request, and the probes.
import { gzipSync } from "node:zlib";
import { request as httpRequest } from "node:http";
import { Writable } from "node:stream";
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { handlers } from "../src/handlers/index.ts";
import { JSON_BODY_LIMIT } from "../src/http/body.ts";
import { createLogger } from "../src/logger.ts";
import { auditLog } from "../src/storage/schema.ts";
import {
  expectApiError as expectError,
  expectBody,
  expectStatus,
  invalidBody,
  type Schemas,
} from "./support/api-client.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

/** POSTs a JSON body of about `size` bytes in chunks, without Content-Length; resolves with the answer. */
function streamJson(
  url: string,
  headers: Record<string, string>,
  size: number,
): Promise<{ status: number; body: Schemas["Error"]; requestId: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers: { ...headers, "Content-Type": "application/json" } });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode!,
          body: JSON.parse(Buffer.concat(chunks).toString()) as Schemas["Error"],
          requestId: response.headers["x-request-id"] as string,
        }),
      );
    });
    // The server may close the connection before the whole body is sent: that is its right.
    request.on("error", (error: NodeJS.ErrnoException) =>
      ["EPIPE", "ECONNRESET"].includes(error.code ?? "") ? undefined : reject(error),
    );
    request.write('{"name":"streamed","prompt":"');
    const chunk = "b".repeat(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      request.end('"}');
    };
    pump();
  });
}

/** A POST for fetchInThread: a JSON body, or a form with one file part `file` of `form` bytes. */
interface FetchSend {
  path: string;
  headers: Record<string, string>;
  body?: string;
  form?: string;
}

interface FetchAnswer {
  send: number;
  status?: number;
  requestId?: string;
  /** The error shape; an MCP message's carries it in `error.data`. */
  body?: { error: Schemas["Error"]["error"] & { data?: Schemas["Error"] } };
  /** How fetch failed, when it did: its cause's code. */
  failure?: string;
}

/** Sends each POST `times` times with Node's global fetch from a worker thread; resolves with what came back. */
async function fetchInThread(baseUrl: string, sends: FetchSend[], times: number): Promise<FetchAnswer[]> {
  const code = `
    const { workerData, parentPort } = require("node:worker_threads");
    (async () => {
      const answers = [];
      for (let round = 0; round < workerData.times; round++) {
        for (const [send, { path, headers, body, form }] of workerData.sends.entries()) {
          const init = { method: "POST", headers: { ...headers } };
          if (form === undefined) {
            init.headers["Content-Type"] = "application/json";
            init.body = body;
          } else {
            init.body = new FormData();
            init.body.append("file", new Blob([form]), "big.bin");
          }
          try {
            const response = await fetch(workerData.baseUrl + path, init);
            const text = await response.text();
            answers.push({ send, status: response.status, requestId: response.headers.get("x-request-id"), body: JSON.parse(text) });
          } catch (error) {
            answers.push({ send, failure: String(error.cause?.code ?? error.cause ?? error) });
          }
        }
      }
      parentPort.postMessage(answers);
    })();
  `;
  const worker = new Worker(code, { eval: true, workerData: { baseUrl, sends, times } });
  try {
    const [answers] = (await once(worker, "message")) as [FetchAnswer[]];
    return answers;
  } finally {
    await worker.terminate();
  }
}

/** A log line the server writes, parsed: pino's fields, the request's, and an error's. */
type LogLine = { level: number; msg?: string; request_id?: string; err?: { stack?: string } } & Record<string, unknown>;

/** Log lines the server writes, parsed. */
function logCapture() {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { lines, logger: createLogger({ level: "info", destination }) };
}

onEmbeddedDatabase("request rules", (driver) => {
  let server: TestServer;
  let logs: ReturnType<typeof logCapture>;
  /** A live key of another workspace, for raw requests and log searches. */
  let keySecret: string;
  const restore: (() => void)[] = [];
  beforeAll(async () => {
    logs = logCapture();
    server = await startTestServer(driver, { logger: logs.logger });
    keySecret = await server.createKey({ workspace: "rules" });
  });
  afterAll(() => server?.stop());
  afterEach(() => {
    for (const undo of restore.splice(0)) undo();
  });

  it("answers an unknown route 404 not_found, with or without a key, and audits it without a route", async () => {
    for (const path of [
      "/v1/nope",
      "/index.html",
      "/v2/projects",
      "/v1/projects/prj_8kF2mQ9xLp3vR7tZ/nope",
      "/V1/PROJECTS",
    ]) {
      expectError(await server.client.get(path), 404, "not_found");
      expectError(await server.as(null).get(path), 404, "not_found");
    }
    const response = await server.client.post("/v1/nothing-here", { a: 1 });
    expectError(response, 404, "not_found");
    expect(await server.auditRow(response.headers.get("x-request-id")!)).toMatchObject({
      route: null,
      path: "/v1/nothing-here",
      method: "POST",
      status: 404,
    });
  });

  it("answers a wrong method 405 method_not_allowed with Allow", async () => {
    const cases: [string, string, string[]][] = [
      ["DELETE", "/v1/projects", ["GET", "POST"]],
      ["PUT", "/v1/projects/prj_8kF2mQ9xLp3vR7tZ", ["DELETE", "GET", "PATCH"]],
      ["POST", "/v1/key", ["GET"]],
      ["GET", "/v1/projects/prj_8kF2mQ9xLp3vR7tZ/runs/run_2Wc7Hn4Kq9Tz1Bx6/cancel", ["POST"]],
      ["OPTIONS", "/v1/webhooks", ["GET", "POST"]],
    ];
    for (const [method, path, allowed] of cases) {
      const response = await server.client.request(method, path);
      expectError(response, 405, "method_not_allowed");
      expect(response.headers.get("allow")!.split(/,\s*/).sort(), `${method} ${path}`).toEqual(allowed);
    }
  });

  it("answers a JSON body over 1 MiB 413 payload_too_large, declared or streamed, and keeps serving", async () => {
    const big = { name: "big", prompt: "a".repeat(JSON_BODY_LIMIT) };
    expectError(await server.client.post("/v1/projects", big), 413, "payload_too_large");
    expectError(await server.client.patch("/v1/projects/prj_8kF2mQ9xLp3vR7tZ", big), 413, "payload_too_large");

    // Chunked, with no Content-Length: refused while it streams.
    const streamed = await streamJson(
      `${server.url}/v1/projects`,
      { Authorization: `Bearer ${keySecret}` },
      JSON_BODY_LIMIT + 128 * 1024,
    );
    expect(streamed.status).toBe(413);
    expect(streamed.body.error).toEqual({
      code: "payload_too_large",
      message: expect.any(String),
      param: null,
      request_id: streamed.requestId,
    });
    // Audited like any other, though the connection was closed under it.
    expect(await server.auditRow(streamed.requestId!)).toMatchObject({
      status: 413,
      route: "/v1/projects",
      ip: expect.stringMatching(/127\.0\.0\.1$/),
    });

    // Just under the limit is read (and refused by the contract's bound on `prompt`, not by size).
    const under = await server.client.post("/v1/projects", {
      name: "under",
      prompt: "c".repeat(JSON_BODY_LIMIT - 100),
    });
    expectError(under, 400, "invalid_request", "prompt");
    expect((await server.client.get("/v1/key")).status).toBe(200);
    expect((await server.client.post("/v1/projects", { name: "after big", prompt: "p" })).status).toBe(201);
  });

  it("refuses a big body without a key at once, closing the connection, and keeps serving", async () => {
    const refused = await streamJson(`${server.url}/v1/projects`, {}, 2 * JSON_BODY_LIMIT);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: "missing_api_key", request_id: refused.requestId });
    expect(await server.auditRow(refused.requestId!)).toMatchObject({ status: 401 });
    expect((await server.client.get("/v1/key")).status).toBe(200);
  });

  it("answers Node's fetch sending a body far over a limit, rather than cutting it off while it sends", async () => {
    // fetch in a thread of its own, as a client in another process: sharing the server's event
    // loop would let it read every answer before the connection is cut under it.
    const big = (mib: number) => "a".repeat(mib * 1024 * 1024);
    const json = (text: string) => JSON.stringify({ name: "big", prompt: text });
    const sends: FetchSend[] = [
      // The contract's JSON body limit (1 MiB), with a key and without one (refused before reading).
      { path: "/v1/projects", headers: { Authorization: `Bearer ${keySecret}` }, body: json(big(8)) },
      { path: "/v1/projects", headers: {}, body: json(big(8)) },
      // An upload past 25 MiB, refused on its declared length; an MCP message past 2 MiB.
      {
        path: "/v1/projects/prj_8kF2mQ9xLp3vR7tZ/files",
        headers: { Authorization: `Bearer ${keySecret}` },
        form: big(30),
      },
      { path: "/mcp", headers: { Authorization: `Bearer ${keySecret}` }, body: json(big(8)) },
    ];
    const answers = await fetchInThread(server.url, sends, 6);
    const answersTo = (index: number) => answers.filter((answer) => answer.send === index);
    for (const answer of answers) expect(answer.failure, `${sends[answer.send]!.path}`).toBeUndefined();
    for (const answer of [...answersTo(0), ...answersTo(2)]) {
      expect(answer.status).toBe(413);
      expect(answer.body?.error).toEqual({
        code: "payload_too_large",
        message: expect.any(String),
        param: answer.send === 2 ? "file" : null,
        request_id: answer.requestId,
      });
    }
    for (const answer of answersTo(1)) expect(answer.body?.error).toMatchObject({ code: "missing_api_key" });
    for (const answer of answersTo(3)) {
      expect(answer.status).toBe(413);
      expect(answer.body?.error.data?.error).toMatchObject({ code: "payload_too_large", request_id: answer.requestId });
    }
    expect((await server.client.get("/v1/key")).status).toBe(200);
  });

  it("answers a content type other than the operation's 415 unsupported_media_type naming Content-Type", async () => {
    const json = '{"name":"typed","prompt":"p"}';
    for (const contentType of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
    ]) {
      const response = await server.client.request("POST", "/v1/projects", {
        raw: json,
        headers: { "Content-Type": contentType },
      });
      expectError(response, 415, "unsupported_media_type", "Content-Type");
    }
    // A body with no Content-Type at all.
    expectError(
      await server.client.request("POST", "/v1/projects", { raw: new TextEncoder().encode(json) }),
      415,
      "unsupported_media_type",
      "Content-Type",
    );
    // JSON to the upload, which takes multipart.
    expectError(
      await server.client.post("/v1/projects/prj_8kF2mQ9xLp3vR7tZ/files", invalidBody({ file: "x" })),
      415,
      "unsupported_media_type",
      "Content-Type",
    );
    // Media type parameters and case do not matter.
    for (const contentType of ["application/json; charset=utf-8", "Application/JSON"]) {
      const response = await server.client.request("POST", "/v1/projects", {
        raw: json,
        headers: { "Content-Type": contentType },
      });
      expectStatus(response, 201, contentType);
    }
  });

  it("answers malformed JSON and non-object bodies 400 invalid_request", async () => {
    for (const raw of ["{", '{"name": "x",}', "nul", "{'name':'x'}"]) {
      const response = await server.client.request("POST", "/v1/projects", {
        raw,
        headers: { "Content-Type": "application/json" },
      });
      expectError(response, 400, "invalid_request");
      expect(response.body.error.message, raw).toMatch(/JSON/);
    }
    for (const raw of ["[]", '"x"', "null", "42", ""]) {
      const response = await server.client.request("POST", "/v1/projects", {
        raw,
        headers: { "Content-Type": "application/json" },
      });
      expectError(response, 400, "invalid_request");
    }
  });

  it("refuses a NUL character or a lone surrogate anywhere in a JSON body 400 naming the field, instead of failing in the database", async () => {
    const before = await server.client.get("/v1/projects?limit=100");
    expectStatus(before, 200);
    const project =
      before.body.data[0]?.id ??
      expectBody(await server.client.post("/v1/projects", { name: "host", prompt: "y" }), 201).id;
    const count = expectBody(await server.client.get("/v1/projects?limit=100"), 200).data.length;
    const cases: Array<[string, string, string, string | null]> = [
      ["POST", "/v1/projects", '{"name": "a\\u0000b", "prompt": "x"}', "name"],
      ["POST", "/v1/projects", '{"name": "a", "prompt": "x\\ud800"}', "prompt"],
      ["POST", "/v1/projects", '{"name": "a", "prompt": "\\udc00x"}', "prompt"],
      ["POST", "/v1/projects", '{"name": "a", "prompt": "x", "n\\u0000": 1}', null],
      ["PATCH", `/v1/projects/${project}`, '{"name": "\\u0000"}', "name"],
      [
        "POST",
        "/v1/webhooks",
        '{"url": "https://example.com/h", "enabled_events": ["*", "\\ud83d"]}',
        "enabled_events.1",
      ],
    ];
    for (const [method, path, raw, param] of cases) {
      const response = await server.client.request(method, path, {
        raw,
        headers: { "Content-Type": "application/json" },
      });
      expectError(response, 400, "invalid_request", param);
    }
    // A well-formed pair (an emoji) is text like any other.
    const emoji = await server.client.post("/v1/projects", { name: "\u{1F600} \u202Eabc\u0301", prompt: "x" });
    expectStatus(emoji, 201);
    expect(emoji.body.name).toBe("\u{1F600} \u202Eabc\u0301");
    expect(expectBody(await server.client.get("/v1/projects?limit=100"), 200).data.length).toBe(count + 1);
  });

  it("refuses an unknown body field, naming it, so a misspelt optional field never passes silently", async () => {
    const before = await server.client.get("/v1/projects?limit=100");
    expectStatus(before, 200);
    const misspelt = await server.client.post(
      "/v1/projects",
      invalidBody({ name: "typo", prompt: "y", visiblity: "public" }),
    );
    expectError(misspelt, 400, "invalid_request", "visiblity");
    expect(misspelt.body.error.message).toMatch(/Unknown field `visiblity`/);
    expect(expectBody(await server.client.get("/v1/projects?limit=100"), 200).data.length).toBe(
      before.body.data.length,
    );
  });

  it("refuses a value outside an enum, listing the allowed values", async () => {
    const refused = await server.client.post(
      "/v1/projects",
      invalidBody({ name: "enum", prompt: "y", agent: "coding-agent-9" }),
    );
    expectError(refused, 400, "invalid_request", "agent");
    expect(refused.body.error.message).toBe(
      '`agent` must be one of "coding-agent-1", "coding-agent-2", "coding-agent-3".',
    );
  });

  it("refuses a compressed body 415 naming Content-Encoding, instead of misreading it", async () => {
    const response = await server.client.request("POST", "/v1/projects", {
      raw: gzipSync(JSON.stringify({ name: "zipped", prompt: "y" })),
      headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" },
    });
    expectError(response, 415, "unsupported_media_type", "Content-Encoding");
  });

  it("reads a request target starting with // as a path", async () => {
    const response = await server.client.get("//v1/projects");
    expectError(response, 404, "not_found");
    expect(response.body.error.message).toBe("No route GET //v1/projects.");
  });

  it("answers invalid path and query parameters 400 naming them, malformed percent-encoding included", async () => {
    expectError(await server.client.get("/v1/projects/not-an-id"), 400, "invalid_request", "project_id");
    expectError(await server.client.get("/v1/projects?unknown=1"), 400, "invalid_request", "unknown");
    expectError(await server.client.get("/v1/projects?visibility=secret"), 400, "invalid_request", "visibility");
    for (const path of [
      "/v1/projects/%",
      "/v1/projects/prj_%E0%A4%A",
      "/v1/projects/prj_%FF%FE%FD%FC%FB%FA%F9%F8",
    ] as const) {
      const response = await server.client.get(path);
      expectStatus(response, 400, path);
      expect(response.body.error.code).toBe("invalid_request");
    }
  });

  it("answers a handler's bug 500 internal_error without its message or stack, and logs the stack", async () => {
    const original = handlers.getCurrentApiKey;
    handlers.getCurrentApiKey = async () => {
      throw new TypeError("kaboom: cannot read properties of undefined (reading 'secret_internal_field')");
    };
    restore.push(() => (handlers.getCurrentApiKey = original));
    const response = await server.client.get("/v1/key");
    expectError(response, 500, "internal_error");
    const text = new TextDecoder().decode(response.bytes);
    for (const leak of ["kaboom", "secret_internal_field", "TypeError", ".ts:", "    at ", "node_modules"])
      expect(text).not.toContain(leak);
    expect(response.headers.get("ratelimit")).not.toBeNull();

    const requestId = response.headers.get("x-request-id")!;
    const logged = logs.lines.find((line) => line.request_id === requestId && line.level >= 50);
    expect(logged?.err?.stack).toMatch(/kaboom[\s\S]*request-rules\.test\.ts/);
    expect(await server.auditRow(requestId)).toMatchObject({ status: 500, route: "/v1/key" });
    handlers.getCurrentApiKey = original;
    expect((await server.client.get("/v1/key")).status).toBe(200);
  });

  it("answers 500 internal_error when the database is gone, and /readyz says so", async () => {
    const doomed = await startTestServer(driver);
    try {
      expect((await doomed.client.get("/v1/projects")).status).toBe(200);
      await doomed.storage.close();
      for (const response of [
        await doomed.client.get("/v1/projects"),
        await doomed.client.post("/v1/projects", { name: "x", prompt: "y" }),
      ]) {
        expectError(response, 500, "internal_error");
        expect(new TextDecoder().decode(response.bytes)).not.toMatch(/ at |\.ts:|pglite|pool|closed/i);
      }
      const ready = await fetch(`${doomed.url}/readyz`);
      expect(ready.status).toBe(503);
      expect((await fetch(`${doomed.url}/healthz`)).status).toBe(200); // alive, not ready
    } finally {
      await doomed.stop();
    }
  });

  it("puts X-Request-Id on every response, unique, equal to the error's request_id", async () => {
    const responses = [
      await server.client.get("/v1/projects"),
      await server.client.get("/v1/nope"),
      await server.client.request("PUT", "/v1/projects"),
      await server.as(null).get("/v1/projects"),
      await server.client.post("/v1/projects", invalidBody({ name: "x" })),
    ];
    const ids = responses.map((response) => response.headers.get("x-request-id"));
    expect(new Set(ids).size).toBe(ids.length);
    for (const response of responses.slice(1))
      expect(response.body).toMatchObject({ error: { request_id: response.headers.get("x-request-id") } });
    // The id is the server's: a client's own X-Request-Id is not echoed as ours.
    const spoofed = await server.client.get("/v1/projects", {
      headers: { "X-Request-Id": "req_spoofedspoofedspoofed" },
    });
    expect(spoofed.headers.get("x-request-id")).not.toBe("req_spoofedspoofedspoofed");
  });

  it("serves /healthz and /readyz outside the contract, unauthenticated and unaudited", async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe("ok");
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toBe("ready");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const probes = await server.storage.db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.path, ["/healthz", "/readyz"]));
    expect(probes).toEqual([]);
  });

  it("logs one line per request with its request id, method, route, status and latency, and no secret", async () => {
    const response = await server.as(keySecret).get("/v1/projects?limit=1");
    const requestId = response.headers.get("x-request-id")!;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = logs.lines.find((l) => l.request_id === requestId && l.msg === "request");
    expect(line).toMatchObject({ method: "GET", route: "/v1/projects", status: 200, latency_ms: expect.any(Number) });
    expect(JSON.stringify(logs.lines)).not.toContain(keySecret.slice("svc_live_".length));
  });

  it("logs one line in the same shape for each request of the console and OAuth, which the pipeline does not serve", async () => {
    const requests: Array<[method: string, path: string, init: RequestInit, route: string, status: number]> = [
      ["GET", "/settings/sign-in", {}, "/settings/sign-in", 200],
      ["GET", "/settings/w/rules/webhooks/we_abc123", {}, "/settings/w/{workspace}/webhooks/{id}", 303],
      ["GET", "/.well-known/oauth-authorization-server", {}, "/.well-known/oauth-authorization-server", 200],
      ["GET", "/oauth/authorize?client_id=nobody", {}, "/oauth/authorize", 400],
      [
        "POST",
        "/oauth/token",
        { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=password" },
        "/oauth/token",
        401,
      ],
    ];
    for (const [method, path, init, route, status] of requests) {
      const response = await fetch(server.url + path, { method, redirect: "manual", ...init });
      await response.arrayBuffer();
      expect(response.status, path).toBe(status);
      const requestId = response.headers.get("x-request-id")!;
      expect(requestId, path).toMatch(/^req_/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const lines = logs.lines.filter((l) => l.request_id === requestId && l.msg === "request");
      expect(lines, path).toHaveLength(1);
      expect(lines[0], path).toMatchObject({ method, route, status, latency_ms: expect.any(Number) });
    }
  });
});
