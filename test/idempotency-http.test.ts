// Idempotency-Key over HTTP, on every storage driver: replay, mismatch, concurrency, scoping per
// workspace and environment, and what is (not) stored, on createProject and triggerAgentRun.
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { handlers } from "../src/handlers/index.ts";
import { findWorkspaceBySlug } from "../src/domain/workspaces.ts";
import {
  agentRuns,
  events,
  files,
  idempotencyKeys,
  projects,
  webhookDeliveries,
  webhookEndpoints,
} from "../src/storage/schema.ts";
import {
  expectApiError,
  expectBody,
  expectStatus,
  invalidBody,
  type ApiClient,
  type ApiResponse,
  type Schemas,
} from "./support/api-client.ts";
import { forEachDriver } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const withKey = (key: string) => ({ headers: { "Idempotency-Key": key } });

/** The projects named `name` that `client` can see. */
async function projectsNamed(client: ApiClient, name: string): Promise<{ id: string }[]> {
  const list = await client.get("/v1/projects?limit=100");
  expectStatus(list, 200);
  return list.body.data.filter((project: { name: string }) => project.name === name);
}

function expectReplayOf(replay: ApiResponse, first: ApiResponse): void {
  expect(replay.status).toBe(first.status);
  expect(replay.body).toEqual(first.body);
  expect(replay.headers.get("idempotent-replayed")).toBe("true");
  expect(replay.headers.get("location")).toBe(first.headers.get("location"));
  expect(replay.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
}

forEachDriver("idempotency over HTTP", (driver) => {
  let server: TestServer;
  let client: ApiClient;
  const restore: (() => void)[] = [];
  beforeAll(async () => {
    server = await startTestServer(driver);
    client = server.client;
  });
  afterAll(() => server?.stop());
  afterEach(() => {
    for (const undo of restore.splice(0)) undo();
  });

  describe("createProject", () => {
    it("replays the same request: same status and body, Idempotent-Replayed, one project", async () => {
      const key = randomUUID();
      const body = { name: "Replay me", prompt: "once" };
      const first = await client.post("/v1/projects", body, withKey(key));
      expectStatus(first, 201);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      const again = await client.post("/v1/projects", body, withKey(key));
      expectReplayOf(again, first);
      // Same JSON, other key order and spacing: the same request.
      const reordered = await client.request("POST", "/v1/projects", {
        raw: '{ "prompt": "once",   "name": "Replay me" }',
        headers: { "Content-Type": "application/json", "Idempotency-Key": key },
      });
      expectReplayOf(reordered, first);
      expect(await projectsNamed(client, "Replay me")).toHaveLength(1);
      expect(expectBody(await client.get(`/v1/projects/${first.body.id}/runs`), 200).data).toHaveLength(1);
    });

    it("refuses the same key with another body, naming Idempotency-Key; creates nothing", async () => {
      const key = randomUUID();
      const first = await client.post("/v1/projects", { name: "Reused A", prompt: "a" }, withKey(key));
      expectStatus(first, 201);
      const other = await client.post("/v1/projects", { name: "Reused B", prompt: "b" }, withKey(key));
      expectApiError(other, 422, "idempotency_key_reused", "Idempotency-Key");
      expect(other.headers.get("idempotent-replayed")).toBeNull();
      expect(await projectsNamed(client, "Reused B")).toHaveLength(0);
      // The same key on another creating operation is another request too.
      const elsewhere = await client.post(
        "/v1/webhooks",
        { url: "https://hooks.example.com/x", enabled_events: ["*"] },
        withKey(key),
      );
      expect(elsewhere.status).toBe(422);
      // The original is still replayed.
      expectReplayOf(await client.post("/v1/projects", { name: "Reused A", prompt: "a" }, withKey(key)), first);
    });

    it("of 10 concurrent requests with one key, exactly one creates; the others replay it or are told it is in use", async () => {
      const key = randomUUID();
      const body = { name: "Concurrent", prompt: "race" };
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => client.post("/v1/projects", body, withKey(key))),
      );
      const created = responses.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
      expect(created).toHaveLength(1);
      for (const response of responses) {
        if (response === created[0]) continue;
        if (response.status === 409) {
          expect(response.body.error).toMatchObject({ code: "idempotency_key_in_use", param: "Idempotency-Key" });
        } else {
          expectReplayOf(response, created[0]!);
        }
      }
      expect(await projectsNamed(client, "Concurrent")).toHaveLength(1);
      // Once the first has finished, every retry replays.
      expectReplayOf(await client.post("/v1/projects", body, withKey(key)), created[0]!);
    });

    it("scopes keys to the workspace and environment: the same key elsewhere creates its own", async () => {
      const key = randomUUID();
      const body = { name: "Scoped", prompt: "p" };
      const other = server.as(await server.createKey({ workspace: "other-ws" }));
      const test = server.as(await server.createKey({ environment: "test" }));
      const results = [
        await client.post("/v1/projects", body, withKey(key)),
        await other.post("/v1/projects", body, withKey(key)),
        await test.post("/v1/projects", body, withKey(key)),
      ];
      for (const result of results) {
        expect(result.status).toBe(201);
        expect(result.headers.get("idempotent-replayed")).toBeNull();
      }
      expect(new Set(results.map((r) => expectBody(r, 201).id)).size).toBe(3);
      for (const c of [client, other, test]) expect(await projectsNamed(c, "Scoped")).toHaveLength(1);
      // Another key of the same workspace and environment shares the key space.
      const sibling = server.as(await server.createKey({}));
      expectReplayOf(await sibling.post("/v1/projects", body, withKey(key)), results[0]!);
    });

    it("does not store a request refused by validation: the corrected request with the same key creates", async () => {
      const key = randomUUID();
      const refused = await client.post("/v1/projects", invalidBody({ name: "Fixed later" }), withKey(key));
      expectStatus(refused, 400);
      expect(refused.body.error).toMatchObject({ code: "invalid_request", param: "prompt" });
      const rows = await server.storage.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
      expect(rows).toEqual([]);
      const fixed = await client.post("/v1/projects", { name: "Fixed later", prompt: "now" }, withKey(key));
      expect(fixed.status).toBe(201);
      expect(fixed.headers.get("idempotent-replayed")).toBeNull();
      // Nor a request refused before it: bad JSON, wrong content type, missing scope, bad key.
      const key2 = randomUUID();
      await client.request("POST", "/v1/projects", {
        raw: "{",
        headers: { "Content-Type": "application/json", "Idempotency-Key": key2 },
      });
      await client.request("POST", "/v1/projects", {
        raw: "x",
        headers: { "Content-Type": "text/plain", "Idempotency-Key": key2 },
      });
      const readOnly = server.as(await server.createKey({ scopes: ["projects:read"] }));
      expect((await readOnly.post("/v1/projects", { name: "n", prompt: "p" }, withKey(key2))).status).toBe(401);
      expect((await client.post("/v1/projects", { name: "Key2", prompt: "p" }, withKey(key2))).status).toBe(201);
    });

    it("does not store a server error: the same key may be retried and then creates", async () => {
      const key = randomUUID();
      const original = handlers.createProject;
      handlers.createProject = async () => {
        throw new Error("storage hiccup");
      };
      restore.push(() => (handlers.createProject = original));
      const failed = await client.post("/v1/projects", { name: "After 500", prompt: "p" }, withKey(key));
      expectStatus(failed, 500);
      expect(failed.body.error.code).toBe("internal_error");
      handlers.createProject = original;
      const retried = await client.post("/v1/projects", { name: "After 500", prompt: "p" }, withKey(key));
      expect(retried.status).toBe(201);
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
      expect(await projectsNamed(client, "After 500")).toHaveLength(1);
    });

    it("refuses a key outside the contract's bounds with 400 naming Idempotency-Key", async () => {
      for (const key of ["x".repeat(256), "has space", "tab\there"]) {
        const refused = await client.post("/v1/projects", { name: "Bad key", prompt: "p" }, withKey(key));
        expectStatus(refused, 400, JSON.stringify(key));
        expect(refused.body.error).toMatchObject({ code: "invalid_request", param: "Idempotency-Key" });
      }
      expect(
        (await client.post("/v1/projects", { name: "Long key", prompt: "p" }, withKey("k".repeat(255)))).status,
      ).toBe(201);
      expect(await projectsNamed(client, "Bad key")).toHaveLength(0);
    });

    it("without a key, two identical requests create two projects", async () => {
      await client.post("/v1/projects", { name: "No key", prompt: "p" });
      await client.post("/v1/projects", { name: "No key", prompt: "p" });
      expect(await projectsNamed(client, "No key")).toHaveLength(2);
    });
  });

  describe("triggerAgentRun", () => {
    async function idleProject(name: string): Promise<string> {
      const project = await client.post("/v1/projects", { name, prompt: "p" });
      expectStatus(project, 201);
      // Cancel the initial run, so the project may take a new one.
      expect(
        (await client.post(`/v1/projects/${project.body.id}/runs/${project.body.latest_run_id}/cancel`)).status,
      ).toBe(200);
      return project.body.id;
    }

    it("replays the run instead of triggering a second one", async () => {
      const projectId = await idleProject("Runs once");
      const key = randomUUID();
      const body = { prompt: "Add dark mode." };
      const first = await client.post(`/v1/projects/${projectId}/runs`, body, withKey(key));
      expectStatus(first, 202);
      const again = await client.post(`/v1/projects/${projectId}/runs`, body, withKey(key));
      expectReplayOf(again, first);
      const runs = await client.get(`/v1/projects/${projectId}/runs`);
      expectStatus(runs, 200);
      expect(runs.body.data.map((run: { id: string }) => run.id)).toEqual([first.body.id, expect.any(String)]);
      // Had the replay run the handler, it would have met the active run: without the key, it does.
      const unkeyed = await client.post(`/v1/projects/${projectId}/runs`, body);
      expectStatus(unkeyed, 409);
      expect(unkeyed.body.error.code).toBe("conflict");
    });

    it("refuses the key with another prompt, or on another project", async () => {
      const projectId = await idleProject("Run mismatch");
      const key = randomUUID();
      expect((await client.post(`/v1/projects/${projectId}/runs`, { prompt: "one" }, withKey(key))).status).toBe(202);
      const other = await client.post(`/v1/projects/${projectId}/runs`, { prompt: "two" }, withKey(key));
      expect(other.status).toBe(422);
      expect(other.body.error).toMatchObject({ code: "idempotency_key_reused", param: "Idempotency-Key" });
      const otherProject = await idleProject("Run mismatch 2");
      const moved = await client.post(`/v1/projects/${otherProject}/runs`, { prompt: "one" }, withKey(key));
      expect(moved.status).toBe(422);
      expect(expectBody(await client.get(`/v1/projects/${otherProject}/runs`), 200).data).toHaveLength(1);
    });

    it("of 10 concurrent triggers with one key, exactly one run is created", async () => {
      const projectId = await idleProject("Run race");
      const key = randomUUID();
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          client.post(`/v1/projects/${projectId}/runs`, { prompt: "race" }, withKey(key)),
        ),
      );
      const fresh = responses.filter((r) => r.status === 202 && r.headers.get("idempotent-replayed") === null);
      expect(fresh).toHaveLength(1);
      for (const response of responses) {
        if (response === fresh[0]) continue;
        if (response.status === 409) expect(response.body.error.code).toBe("idempotency_key_in_use");
        else expectReplayOf(response, fresh[0]!);
      }
      expect(expectBody(await client.get(`/v1/projects/${projectId}/runs`), 200).data).toHaveLength(2);
    });

    it("stores a refusal the handler made (a 404) and replays it", async () => {
      const key = randomUUID();
      const missing = "/v1/projects/prj_8kF2mQ9xLp3vR7tZ/runs";
      const first = await client.post(missing, { prompt: "x" }, withKey(key));
      expectStatus(first, 404);
      const again = await client.post(missing, { prompt: "x" }, withKey(key));
      expect(again.status).toBe(404);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      // A replay is the first response, body included: its request_id is the first request's (the
      // one the audit log holds), not this response's X-Request-Id.
      expect(again.body).toEqual(first.body);
      expect(again.body.error).toMatchObject({
        code: "not_found",
        param: "project_id",
        request_id: first.headers.get("x-request-id"),
      });
      const [row] = await server.storage.db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, "completed")));
      expect(row?.responseStatus).toBe(404);
    });
  });
});

forEachDriver("idempotency: the answer commits with the effect", (driver) => {
  let server: TestServer;
  const restore: (() => void)[] = [];
  const lockTimeoutMs = 600;
  beforeAll(async () => {
    server = await startTestServer(driver, { idempotencyLockTimeoutMs: lockTimeoutMs });
  });
  afterAll(() => server?.stop());
  afterEach(() => {
    for (const undo of restore.splice(0)) undo();
  });

  /** The creating operations, each as a request made anew in a workspace of its own (set up first). */
  const creating: Record<string, (client: ApiClient) => Promise<(key: string) => Promise<ApiResponse>>> = {
    createProject: async (client) => (key) =>
      client.post("/v1/projects", { name: "Together", prompt: "p" }, withKey(key)),
    triggerAgentRun: async (client) => {
      const projectId = await idleProject(client);
      return (key) => client.post(`/v1/projects/${projectId}/runs`, { prompt: "again" }, withKey(key));
    },
    uploadFile: async (client) => {
      const projectId = await idleProject(client);
      return (key) => {
        const form = new FormData();
        form.append("file", new Blob(["content"]), "together.txt");
        return client.request("POST", `/v1/projects/${projectId}/files`, {
          raw: form,
          headers: { "Idempotency-Key": key },
        });
      };
    },
    createWebhookEndpoint: async (client) => (key) =>
      client.post("/v1/webhooks", { url: "https://hooks.example.com/together", enabled_events: ["*"] }, withKey(key)),
    rotateWebhookSecret: async (client) => {
      const endpoint = expectBody(
        await client.post("/v1/webhooks", { url: "https://hooks.example.com/r", enabled_events: ["*"] }),
        201,
      );
      return (key) => client.post(`/v1/webhooks/${endpoint.id}/rotate-secret`, undefined, withKey(key));
    },
    sendTestWebhookEvent: async (client) => {
      const endpoint = expectBody(
        await client.post("/v1/webhooks", { url: "https://hooks.example.com/t", enabled_events: ["*"] }),
        201,
      );
      return (key) => client.post(`/v1/webhooks/${endpoint.id}/test`, undefined, withKey(key));
    },
  };

  /** A project whose first run was canceled: nothing in the background changes it. */
  async function idleProject(client: ApiClient): Promise<string> {
    const project = expectBody(await client.post("/v1/projects", { name: "Idle", prompt: "p" }), 201);
    await client.post(`/v1/projects/${project.id}/runs/${project.latest_run_id}/cancel`);
    return project.id;
  }

  /** Every row of the workspace that an effect may write. */
  async function rowsOf(workspaceId: string): Promise<unknown[]> {
    const db = server.storage.db;
    return Promise.all(
      [projects, agentRuns, files, webhookEndpoints, webhookDeliveries, events].map((table) =>
        db.select().from(table).where(eq(table.workspaceId, workspaceId)),
      ),
    );
  }

  it.each(Object.keys(creating))(
    "%s: a failure to store the answer undoes the effect; the retry with the key makes it once",
    async (operation) => {
      const slug = `together-${operation.toLowerCase()}`;
      const client = server.as(await server.createKey({ workspace: slug }));
      const send = await creating[operation]!(client);
      const workspace = (await findWorkspaceBySlug(server.storage.db, slug))!;
      const before = await rowsOf(workspace.id);
      const db = server.storage.db;
      await db.execute(sql`create function refuse_stored_answer() returns trigger language plpgsql as $$
        begin raise exception 'the answer could not be stored'; end $$`);
      await db.execute(sql`create trigger refuse_stored_answer before update on idempotency_keys for each row
        when (new.state = 'completed' and new.key like 'refuse-%') execute function refuse_stored_answer()`);
      const key = `refuse-${randomUUID()}`;
      try {
        expect((await send(key)).status).toBe(500);
        // The effect was written in the transaction that failed to store the answer: it is not there.
        expect(await rowsOf(workspace.id)).toEqual(before);
      } finally {
        await db.execute(sql`drop trigger refuse_stored_answer on idempotency_keys`);
        await db.execute(sql`drop function refuse_stored_answer()`);
      }
      // The key was released at once, not held until its lease ran out.
      const retried = await send(key);
      expect(retried.status).toBeLessThan(300);
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
      expectReplayOf(await send(key), retried);
    },
  );

  it("a request running longer than the lock timeout keeps its key: a retry meanwhile is told it is in use", async () => {
    const original = handlers.createProject;
    handlers.createProject = async (input, context) => {
      await new Promise((resolve) => setTimeout(resolve, 3 * lockTimeoutMs));
      return original(input, context);
    };
    restore.push(() => (handlers.createProject = original));
    const key = randomUUID();
    const body = { name: "Slow create", prompt: "p" };
    const slow = server.client.post("/v1/projects", body, withKey(key));
    await new Promise((resolve) => setTimeout(resolve, 2 * lockTimeoutMs));
    const meanwhile = await server.client.post("/v1/projects", body, withKey(key));
    expectStatus(meanwhile, 409);
    expect(meanwhile.body.error.code).toBe("idempotency_key_in_use");
    const first = await slow;
    expectStatus(first, 201);
    expectReplayOf(await server.client.post("/v1/projects", body, withKey(key)), first);
    expect(await projectsNamed(server.client, "Slow create")).toHaveLength(1);
  });

  describe("uploads", () => {
    const content = (fill: number) => new Uint8Array(300 * 1024).fill(fill);
    const uploadWithKey = (projectId: string, key: string, bytes: Uint8Array, path = "data.bin") => {
      const form = new FormData();
      form.append("path", path);
      form.append("file", new Blob([bytes]), "data.bin");
      // FormData picks a new boundary for every request, as a client's retry would.
      return server.client.request("POST", `/v1/projects/${projectId}/files`, {
        raw: form,
        headers: { "Idempotency-Key": key },
      });
    };

    it("tells retries apart by the SHA-256 of the content, not its length or the multipart boundary", async () => {
      const projectId = expectBody(await server.client.post("/v1/projects", { name: "Uploads", prompt: "p" }), 201).id;
      const key = randomUUID();
      const first = await uploadWithKey(projectId, key, content(1));
      expectStatus(first, 201);
      expectReplayOf(await uploadWithKey(projectId, key, content(1)), first);
      const sameLength = await uploadWithKey(projectId, key, content(2));
      expectStatus(sameLength, 422);
      expect(sameLength.body.error.code).toBe("idempotency_key_reused");
      const otherPath = await uploadWithKey(projectId, key, content(1), "elsewhere.bin");
      expect(otherPath.status).toBe(422);
      expect(expectBody(await server.client.get(`/v1/projects/${projectId}/files`), 200).data).toHaveLength(1);
    });

    it("does not store a body that could not be received: the retry with the key uploads", async () => {
      const projectId = expectBody(
        await server.client.post("/v1/projects", { name: "Cut uploads", prompt: "p" }),
        201,
      ).id;
      const key = randomUUID();
      const cut = await server.client.request("POST", `/v1/projects/${projectId}/files`, {
        raw: '--b\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n\r\nabc',
        headers: { "Content-Type": "multipart/form-data; boundary=b", "Idempotency-Key": key },
      });
      expect(cut.status).toBe(400);
      const tooLarge = await server.client.request("POST", `/v1/projects/${projectId}/files`, {
        raw: new Uint8Array(26 * 1024 * 1024),
        headers: { "Content-Type": "multipart/form-data; boundary=b", "Idempotency-Key": key },
      });
      expect(tooLarge.status).toBe(413);
      const rows = await server.storage.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
      expect(rows).toEqual([]);
      const uploaded = await uploadWithKey(projectId, key, content(3));
      expect(uploaded.status).toBe(201);
      expect(uploaded.headers.get("idempotent-replayed")).toBeNull();
    });
  });

  describe("webhook secrets", () => {
    const endpoint: Schemas["CreateWebhookEndpointRequest"] = {
      url: "https://hooks.example.com/idempotent",
      enabled_events: ["*"],
    };

    it("a replayed creation shows the secret again, which the stored answer does not hold", async () => {
      const key = randomUUID();
      const first = await server.client.post("/v1/webhooks", endpoint, withKey(key));
      expectStatus(first, 201);
      expect(first.body.secret).toMatch(/^whsec_/);
      expectReplayOf(await server.client.post("/v1/webhooks", endpoint, withKey(key)), first);
      const [row] = await server.storage.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
      expect(JSON.stringify(row)).not.toContain(first.body.secret);
      expect(JSON.stringify(row)).not.toContain("whsec_");
    });

    it("replays the secret while it still signs; once rotated out, answers 409 and asks for a rotation", async () => {
      const key = randomUUID();
      const first = await server.client.post("/v1/webhooks", endpoint, withKey(key));
      expectStatus(first, 201);
      const rotate = () =>
        server.client.post(`/v1/webhooks/${first.body.id}/rotate-secret`, undefined, withKey(randomUUID()));
      expect((await rotate()).status).toBe(200);
      // Rotated once: the first secret still signs for a day beside the new one.
      expect(expectBody(await server.client.post("/v1/webhooks", endpoint, withKey(key)), 201).secret).toBe(
        first.body.secret,
      );
      expect((await rotate()).status).toBe(200);
      const gone = await server.client.post("/v1/webhooks", endpoint, withKey(key));
      expectStatus(gone, 409);
      expect(gone.body.error.code).toBe("conflict");
      expect(gone.body.error.message).toContain("rotate-secret");
      expect(JSON.stringify(gone.body)).not.toContain("whsec_");
    });

    it("a replayed rotation shows the secret it made", async () => {
      const created = await server.client.post("/v1/webhooks", endpoint);
      expectStatus(created, 201);
      const key = randomUUID();
      const rotated = await server.client.post(
        `/v1/webhooks/${created.body.id}/rotate-secret`,
        undefined,
        withKey(key),
      );
      expect(rotated.status).toBe(200);
      expectReplayOf(
        await server.client.post(`/v1/webhooks/${created.body.id}/rotate-secret`, undefined, withKey(key)),
        rotated,
      );
    });
  });
});
