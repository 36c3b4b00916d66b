// The client library (packages/client, from its source) against the real server on the embedded database: typed calls,
// pagination across pages, automatic idempotency keys kept across the client's own retries, typed
// errors, a 429 waited out, 5xx retried with backoff. Then its transport alone, on a fake fetch:
// what is retried and what is not, timeouts, aborts, the Retry-After cap.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { operationMeta } from "../generated/handlers.ts";
import {
  ApiConnectionError,
  ApiError,
  createClient,
  idempotentRoutes,
  multipartBody,
  type ClientOptions,
  type ListItem,
  type ProjectBuilderClient,
} from "../packages/client/src/index.ts";
import { createProject } from "../src/domain/projects.ts";
import { PLAN_LIMITS, type Plan, type PlanLimits } from "../src/http/rate-limit/index.ts";
import { onEmbeddedDatabase, pgliteDriver } from "./support/database.ts";
import { startTestServer, suiteServer, type TestServer } from "./support/server.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sent {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number | "network error";
}

/** A transport over the real fetch that records every attempt; `fault` may replace or spoil one. */
function recordingFetch(fault?: (request: Request, attempt: number) => Promise<Response | "lose" | undefined>) {
  const sent: Sent[] = [];
  const transport = async (request: Request): Promise<Response> => {
    const record: Sent = {
      method: request.method,
      path: new URL(request.url).pathname,
      idempotencyKey: request.headers.get("idempotency-key"),
      status: "network error",
    };
    sent.push(record);
    const injected = await fault?.(request, sent.length);
    if (injected instanceof Response) {
      record.status = injected.status;
      return injected;
    }
    const response = await fetch(request);
    if (injected === "lose") {
      // The server carried the request out; its answer never reaches the client.
      await response.arrayBuffer();
      throw new TypeError("fetch failed: socket hang up (simulated)");
    }
    record.status = response.status;
    return response;
  };
  return { sent, transport };
}

const errorResponse = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(
    JSON.stringify({ error: { code, message: `simulated ${status}`, param: null, request_id: "req_simulated0001" } }),
    {
      status,
      headers: { "content-type": "application/json", "x-request-id": "req_simulated0001", ...headers },
    },
  );

// Compile-time checks: the calls are typed from the contract (tsc runs over test/).
export function typeChecks(client: ProjectBuilderClient) {
  return async () => {
    // @ts-expect-error the body is required
    await client.POST("/v1/projects", {});
    // @ts-expect-error prompt must be a string
    await client.POST("/v1/projects", { body: { name: "x", prompt: 1 } });
    // @ts-expect-error the path parameter is required
    await client.GET("/v1/projects/{project_id}");
    // @ts-expect-error no such operation
    await client.PATCH("/v1/projects", { body: {} });
    // @ts-expect-error /v1/key is not a list
    client.paginate("/v1/key");
    const project = await client.GET("/v1/projects/{project_id}", { params: { path: { project_id: "prj_x" } } });
    const status: "queued" | "building" | "ready" | "failed" | (string & {}) = project.status;
    const deleted: undefined = await client.DELETE("/v1/projects/{project_id}", {
      params: { path: { project_id: "prj_x" } },
    });
    const item: ListItem<"/v1/events"> = (await client.GET("/v1/events")).data[0]!;
    const code: "not_found" | (string & {}) = new ApiError(new Response(null, { status: 404 }), null).code;
    return [status, deleted, item.type, code];
  };
}

onEmbeddedDatabase("client library", (driver) => {
  const server = suiteServer(driver);

  const clientFor = async (workspace: string, options: Partial<ClientOptions> = {}) =>
    createClient({ apiKey: await server.createKey({ workspace }), baseUrl: server.url, ...options });

  it("walks 45 projects in pages of 7 with paginate: each seen once, newest first", async () => {
    const { sent, transport } = recordingFetch();
    const client = await clientFor("paging", { fetch: transport });
    // Made through the domain (the HTTP create is proven elsewhere): quicker.
    const key = await client.GET("/v1/key");
    const partition = { workspaceId: key.workspace.id, environment: key.environment };
    const created: string[] = [];
    for (let i = 0; i < 45; i++) {
      created.push((await createProject(server.storage.db, server.jobs, partition, { name: `P${i}`, prompt: "p" })).id);
      await sleep(2); // distinct created_at milliseconds: the order is then the creation order
    }
    sent.length = 0;

    const seen: ListItem<"/v1/projects">[] = [];
    for await (const project of client.paginate("/v1/projects", { params: { query: { limit: 7 } } }))
      seen.push(project);
    expect(seen.map((project) => project.id)).toEqual(created.toReversed());
    expect(seen[0]).toMatchObject({ name: "P44", status: "queued" });
    // ceil(45 / 7) pages, the first without a cursor, each asking for 7.
    expect(sent.map((request) => request.method)).toEqual(Array(7).fill("GET"));
    expect(sent.every((request) => request.status === 200)).toBe(true);

    // Stopping early fetches no further page; a cursor in the query is where to start.
    sent.length = 0;
    const firstTen: string[] = [];
    for await (const project of client.paginate("/v1/projects", { params: { query: { limit: 7 } } })) {
      firstTen.push(project.id);
      if (firstTen.length === 10) break;
    }
    expect(firstTen).toEqual(created.toReversed().slice(0, 10));
    expect(sent).toHaveLength(2);
    const page = await client.GET("/v1/projects", { params: { query: { limit: 40 } } });
    const rest: string[] = [];
    for await (const project of client.paginate("/v1/projects", {
      params: { query: { limit: 7, cursor: page.next_cursor! } },
    }))
      rest.push(project.id);
    expect(rest).toEqual(created.toReversed().slice(40));
  });

  it("gives a creating POST an Idempotency-Key and keeps it when it retries a lost response: one project", async () => {
    const { sent, transport } = recordingFetch(async (request, attempt) =>
      request.method === "POST" && attempt === 1 ? "lose" : undefined,
    );
    const client = await clientFor("idempotent", { fetch: transport, backoff: { initialMs: 10 } });
    const { data, response } = await client.raw.POST("/v1/projects", { body: { name: "Once", prompt: "only one" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("idempotent-replayed")).toBe("true"); // the server replayed the first answer
    expect(sent.map(({ method, status }) => [method, status])).toEqual([
      ["POST", "network error"],
      ["POST", 201],
    ]);
    expect(sent[0]!.idempotencyKey).toMatch(UUID);
    expect(sent[1]!.idempotencyKey).toBe(sent[0]!.idempotencyKey);
    const all = await client.GET("/v1/projects", { params: { query: { limit: 100 } } });
    expect(all.data.map((project) => project.id)).toEqual([data!.id]);

    // Each call has a key of its own; a key the caller gives is sent as it is.
    await client.POST("/v1/projects", { body: { name: "Second", prompt: "p" } });
    await client.POST("/v1/projects", {
      body: { name: "Third", prompt: "p" },
      params: { header: { "Idempotency-Key": "caller-key-1" } },
    });
    const again = await client.POST("/v1/projects", {
      body: { name: "Third", prompt: "p" },
      params: { header: { "Idempotency-Key": "caller-key-1" } },
    });
    const keys = sent
      .filter((request) => request.method === "POST")
      .slice(2)
      .map((request) => request.idempotencyKey);
    expect(keys[0]).toMatch(UUID);
    expect(keys[0]).not.toBe(sent[0]!.idempotencyKey);
    expect(keys.slice(1)).toEqual(["caller-key-1", "caller-key-1"]);
    expect((await client.GET("/v1/projects")).data.map((project) => project.id)).toContain(again.id);
    expect((await client.GET("/v1/projects")).data).toHaveLength(3);
  });

  it("sends no key on operations that take none, and does not repeat them after a network error", async () => {
    const setup = await clientFor("not-idempotent");
    const project = await setup.POST("/v1/projects", { body: { name: "Run me", prompt: "p" } });
    const { sent, transport } = recordingFetch(async (request) => (request.method !== "GET" ? "lose" : undefined));
    const client = await clientFor("not-idempotent", { fetch: transport, backoff: { initialMs: 1 } });
    const cancel = client.POST("/v1/projects/{project_id}/runs/{run_id}/cancel", {
      params: { path: { project_id: project.id, run_id: project.latest_run_id! } },
    });
    await expect(cancel).rejects.toBeInstanceOf(ApiConnectionError);
    await expect(cancel).rejects.toMatchObject({ attempts: 1, method: "POST", timedOut: false });
    const rename = client.PATCH("/v1/projects/{project_id}", {
      params: { path: { project_id: project.id } },
      body: { name: "Renamed" },
    });
    await expect(rename).rejects.toMatchObject({ name: "ApiConnectionError", attempts: 1 });
    expect(sent.map(({ method, idempotencyKey }) => [method, idempotencyKey])).toEqual([
      ["POST", null],
      ["PATCH", null],
    ]);
  });

  it("throws ApiError with the contract's code, param and request_id", async () => {
    const client = await clientFor("errors");
    const missing = await client
      .GET("/v1/projects/{project_id}", { params: { path: { project_id: "prj_8kF2mQ9xLp3vR7tZ" } } })
      .then(() => expect.unreachable("a project that does not exist was found"))
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiError);
    const notFound = missing as ApiError;
    expect(notFound).toMatchObject({ status: 404, code: "not_found", param: "project_id", name: "ApiError" });
    expect(notFound.request_id).toMatch(/^req_[0-9A-Za-z]{8,64}$/);
    expect(notFound.request_id).toBe(notFound.headers.get("x-request-id"));
    expect(notFound.body).toEqual({
      error: { code: "not_found", message: notFound.message, param: "project_id", request_id: notFound.request_id },
    });
    expect(notFound.message).toContain("prj_8kF2mQ9xLp3vR7tZ");

    const invalid = await client
      .POST("/v1/projects", { body: { name: "No prompt" } as never })
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({ status: 400, code: "invalid_request", param: "prompt" });
    const limit = await client
      .GET("/v1/projects", { params: { query: { limit: 1000 } } })
      .catch((error: unknown) => error);
    expect(limit).toMatchObject({ status: 400, code: "invalid_request", param: "limit" });
    // A 4xx is not retried: one request each.
    const { sent, transport } = recordingFetch();
    const counted = await clientFor("errors", { fetch: transport });
    await counted
      .DELETE("/v1/projects/{project_id}", { params: { path: { project_id: "prj_8kF2mQ9xLp3vR7tZ" } } })
      .catch(() => {});
    expect(sent.map((request) => request.status)).toEqual([404]);
  });

  it("retries a 503 with backoff: a GET, and a create with the same key, which makes one project", async () => {
    const { sent, transport } = recordingFetch(async (_request, attempt) =>
      attempt === 1 || attempt === 3 ? errorResponse(503, "service_unavailable") : undefined,
    );
    const client = await clientFor("flaky", { fetch: transport });
    const started = Date.now();
    const usage = await client.GET("/v1/billing/usage");
    expect(Date.now() - started).toBeGreaterThanOrEqual(250); // the first backoff: 500 ms jittered to 250–500
    expect(usage.plan).toBe("pro");
    const created = await client.POST("/v1/projects", { body: { name: "Flaky", prompt: "p" } });
    expect(sent.map(({ method, status }) => `${method} ${status}`)).toEqual([
      "GET 503",
      "GET 200",
      "POST 503",
      "POST 201",
    ]);
    expect(sent[3]!.idempotencyKey).toBe(sent[2]!.idempotencyKey);
    expect((await client.GET("/v1/projects")).data.map((project) => project.id)).toEqual([created.id]);

    // Not for a PATCH: its 503 is the caller's, at once.
    const { sent: once, transport: failing } = recordingFetch(async () => errorResponse(503, "service_unavailable"));
    const patching = await clientFor("flaky", { fetch: failing });
    const refused = await patching
      .PATCH("/v1/projects/{project_id}", { params: { path: { project_id: created.id } }, body: { name: "x" } })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 503, code: "service_unavailable", request_id: "req_simulated0001" });
    expect(once).toHaveLength(1);
  });

  it("uploads with multipartBody and downloads bytes: the multipart and binary operations are reachable too", async () => {
    const client = await clientFor("files");
    const project = await client.POST("/v1/projects", { body: { name: "Site", prompt: "p" } });
    const file = await client.POST("/v1/projects/{project_id}/files", {
      params: { path: { project_id: project.id } },
      body: { file: "<h1>Hello</h1>", path: "index.html" },
      bodySerializer: multipartBody,
    });
    expect(file).toMatchObject({ path: "index.html", size_bytes: 14, project_id: project.id });
    const text = await client.GET("/v1/projects/{project_id}/files/{file_id}/content", {
      params: { path: { project_id: project.id, file_id: file.id } },
      parseAs: "text",
    });
    expect(text).toBe("<h1>Hello</h1>");
    expect(
      await client.DELETE("/v1/projects/{project_id}/files/{file_id}", {
        params: { path: { project_id: project.id, file_id: file.id } },
      }),
    ).toBeUndefined();
  });
});

describe("client library under rate limits", () => {
  const tiny: PlanLimits = { perMinute: 1000, burst: 2 };
  let server: TestServer;
  beforeAll(async () => {
    const plans = Object.fromEntries(Object.keys(PLAN_LIMITS).map((plan) => [plan, tiny])) as Record<Plan, PlanLimits>;
    server = await startTestServer(pgliteDriver, {
      rateLimitPlans: plans,
      rateLimitWindows: { longSeconds: 60, shortSeconds: 1 },
    });
  });
  afterAll(() => server?.stop());

  it("waits out a 429's Retry-After and then succeeds", async () => {
    const { sent, transport } = recordingFetch();
    const client = createClient({
      apiKey: await server.createKey({ workspace: "limited" }),
      baseUrl: server.url,
      fetch: transport,
    });
    await client.GET("/v1/key");
    await client.GET("/v1/key");
    const started = Date.now();
    const key = await client.GET("/v1/key");
    const waited = Date.now() - started;
    expect(key.workspace).toMatchObject({ slug: "limited" });
    expect(sent.map((request) => request.status)).toEqual([200, 200, 429, 200]);
    expect(waited).toBeGreaterThanOrEqual(900); // Retry-After: 1
    expect(waited).toBeLessThan(5000);

    // With retries off, the 429 is the caller's, with its Retry-After.
    const impatient = createClient({
      apiKey: await server.createKey({ workspace: "limited" }),
      baseUrl: server.url,
      maxRetries: 0,
    });
    const errors = await Promise.all(
      [0, 1, 2].map(() =>
        impatient.GET("/v1/key").then(
          () => null,
          (error: unknown) => error,
        ),
      ),
    );
    const limited = errors.find((error) => error !== null);
    expect(limited).toBeInstanceOf(ApiError);
    expect(limited).toMatchObject({ status: 429, code: "key_rate_limited", retryAfter: 1 });
  });
});

describe("client transport", () => {
  const baseUrl = "https://api.project-builder.test";
  const ok = () =>
    new Response(JSON.stringify({ data: [], next_cursor: null }), { headers: { "content-type": "application/json" } });
  function fake(answers: (() => Response | Promise<Response>)[]) {
    const requests: Request[] = [];
    const transport = async (request: Request) => {
      requests.push(request);
      const answer = answers[Math.min(requests.length, answers.length) - 1]!;
      return answer();
    };
    return { requests, transport };
  }
  const fail = () => {
    throw new TypeError("fetch failed");
  };

  it("knows the creating operations from the document: those that declare Idempotency-Key", async () => {
    const document = parse(await readFile(join(import.meta.dirname, "..", "generated", "openapi.yaml"), "utf8")) as {
      paths: Record<string, Record<string, { operationId?: string; parameters?: { in: string; name: string }[] }>>;
    };
    const declared = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key"))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect([...idempotentRoutes].sort()).toEqual(declared.sort());
    for (const operationId of [
      "createProject",
      "triggerAgentRun",
      "createDeployment",
      "rollbackDeployment",
      "uploadFile",
      "createWebhookEndpoint",
      "sendTestWebhookEvent",
      "redeliverWebhookDelivery",
    ] as const) {
      const meta = operationMeta[operationId];
      expect(idempotentRoutes.has(`POST ${meta.path}`), operationId).toBe(true);
    }
    expect(idempotentRoutes.has("POST /v1/projects/{project_id}/runs/{run_id}/cancel")).toBe(false);
  });

  it("retries network errors of a GET at most maxRetries times, then throws ApiConnectionError", async () => {
    const { requests, transport } = fake([fail]);
    const client = createClient({
      apiKey: "svc_test_x",
      baseUrl,
      fetch: transport,
      maxRetries: 2,
      backoff: { initialMs: 1 },
    });
    const error = await client.GET("/v1/projects").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toMatchObject({
      attempts: 3,
      code: "connection_error",
      method: "GET",
      url: `${baseUrl}/v1/projects`,
      timedOut: false,
    });
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(requests).toHaveLength(3);
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer svc_test_x");
  });

  it("times out a slow attempt, retries it, and reports the timeout", async () => {
    const hang = (request: Request) =>
      new Promise<Response>((_, reject) =>
        request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true }),
      );
    const requests: Request[] = [];
    const client = createClient({
      apiKey: "k",
      baseUrl,
      timeoutMs: 30,
      maxRetries: 1,
      backoff: { initialMs: 1 },
      fetch: (request) => {
        requests.push(request);
        return requests.length === 1 ? hang(request) : Promise.resolve(ok());
      },
    });
    expect(await client.GET("/v1/projects")).toEqual({ data: [], next_cursor: null });
    expect(requests).toHaveLength(2);
    requests.length = 0;
    const always = createClient({
      apiKey: "k",
      baseUrl,
      timeoutMs: 30,
      maxRetries: 1,
      backoff: { initialMs: 1 },
      fetch: hang,
    });
    await expect(always.GET("/v1/projects")).rejects.toMatchObject({
      name: "ApiConnectionError",
      timedOut: true,
      attempts: 2,
    });
  });

  it("stops when the caller aborts, with the caller's reason, even while waiting to retry", async () => {
    const { requests, transport } = fake([() => errorResponse(503, "service_unavailable")]);
    const client = createClient({ apiKey: "k", baseUrl, fetch: transport, backoff: { initialMs: 10_000 } });
    const controller = new AbortController();
    const call = client.GET("/v1/projects", { signal: controller.signal });
    await sleep(50);
    controller.abort(new Error("user went away"));
    await expect(call).rejects.toThrow("user went away");
    expect(requests).toHaveLength(1);
  });

  it("retries a 429 for any request, a POST without a key included, waiting at most maxRetryAfterSeconds", async () => {
    const { requests, transport } = fake([() => errorResponse(429, "key_rate_limited", { "retry-after": "3600" }), ok]);
    const client = createClient({ apiKey: "k", baseUrl, fetch: transport, maxRetryAfterSeconds: 0.05 });
    const started = Date.now();
    await client.POST("/v1/projects/{project_id}/runs/{run_id}/cancel", {
      params: { path: { project_id: "prj_1", run_id: "run_1" } },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(requests.map((request) => request.headers.get("idempotency-key"))).toEqual([null, null]);
  });

  it("retries 409 idempotency_key_in_use with the same key, but not a 409 conflict", async () => {
    const { requests, transport } = fake([() => errorResponse(409, "idempotency_key_in_use"), ok]);
    const client = createClient({ apiKey: "k", baseUrl, fetch: transport, backoff: { initialMs: 1 } });
    await client.POST("/v1/projects", { body: { name: "x", prompt: "y" } });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers.get("idempotency-key")).toBe(requests[0]!.headers.get("idempotency-key"));
    expect(await requests[1]!.json()).toEqual({ name: "x", prompt: "y" }); // the body is sent again, whole

    const conflict = fake([() => errorResponse(409, "conflict"), ok]);
    const other = createClient({ apiKey: "k", baseUrl, fetch: conflict.transport, backoff: { initialMs: 1 } });
    await expect(other.POST("/v1/projects", { body: { name: "x", prompt: "y" } })).rejects.toMatchObject({
      status: 409,
      code: "conflict",
    });
    expect(conflict.requests).toHaveLength(1);
  });

  it("gives an error body that is not the contract's a code from its status", async () => {
    const { requests, transport } = fake([
      () => new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }),
    ]);
    const client = createClient({ apiKey: "k", baseUrl, fetch: transport, maxRetries: 1, backoff: { initialMs: 1 } });
    const error = await client.GET("/v1/key").catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 502,
      code: "internal_error",
      param: null,
      request_id: null,
      body: "<html>Bad gateway</html>",
    });
    expect(requests).toHaveLength(2); // a 502 is retried, once here
  });
});
