// Deployments over HTTP, on the embedded database. The tests play the workers themselves, calling
// the real run and deployment workers at the moment they choose (the server runs none), so every
// state in between can be observed; test/work-that-finishes.test.ts runs them for real.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentError, type Agent } from "../src/agents/agent.ts";
import { builtinAgent } from "../src/agents/builtin/agent.ts";
import { failDeployment, startDeploymentBuild } from "../src/domain/deployments.ts";
import { createAgentRunWorker } from "../src/jobs/agent-run-worker.ts";
import { createBuildPool, type BuildPool } from "../src/jobs/build-pool/build-pool.ts";
import { createDeploymentWorker } from "../src/jobs/deployment-worker.ts";
import { createLogger } from "../src/logger.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import {
  expectApiError,
  expectBody,
  expectStatus,
  invalidBody,
  type ApiResponse,
  type ResponseTo,
  type Schemas,
} from "./support/api-client.ts";

/** A new deployment of the project: Location names it, and it is queued, not yet served, with `fields`. */
function expectQueued(
  response: ApiResponse<202, Schemas["Deployment"]>,
  projectId: string,
  fields: Record<string, unknown>,
): void {
  expect(response.headers.get("location")).toBe(`/v1/projects/${projectId}/deployments/${response.body.id}`);
  expect(response.body).toMatchObject({ project_id: projectId, status: "queued", url: null, ...fields });
}

const failingAgent: Agent = {
  kind: "builtin",
  run: async () => {
    throw new AgentError("agent_error", "the model is down");
  },
};

onEmbeddedDatabase("deployments", (driver) => {
  let server: TestServer;
  let build: (deploymentId: string) => Promise<void>;
  let buildPool: BuildPool;
  beforeAll(async () => {
    server = await startTestServer(driver);
    buildPool = createBuildPool({ threads: 1, timeoutMs: 60_000 });
    build = createDeploymentWorker({
      db: server.storage.db,
      apps: server.apps,
      logger: createLogger({ level: "silent" }),
      buildSite: buildPool.buildSite,
    });
  });
  afterAll(async () => {
    await buildPool?.close();
    await server?.stop();
  });

  const finishRun = async (runId: string, status: "succeeded" | "failed" = "succeeded") => {
    const agent = status === "succeeded" ? builtinAgent : failingAgent;
    await createAgentRunWorker({
      db: server.storage.db,
      agent,
      timeoutMs: 60_000,
      logger: createLogger({ level: "silent" }),
    })(runId);
  };
  const origin = (url?: string | null) => new URL(url!).origin;

  /** A project whose initial run succeeded. */
  async function deployableProject(): Promise<{ id: string; runId: string }> {
    const project = expectBody(await server.client.post("/v1/projects", { name: "Shop", prompt: "A small shop" }), 201);
    await finishRun(project.latest_run_id!);
    return { id: project.id, runId: project.latest_run_id! };
  }

  describe("create", () => {
    it("is a conflict while the project has no succeeded run", async () => {
      const project = expectBody(await server.client.post("/v1/projects", { name: "Fresh", prompt: "fresh" }), 201);
      const refused = await server.client.post(`/v1/projects/${project.id}/deployments`);
      expectStatus(refused, 409);
      expect(refused.body.error.code).toBe("conflict");
      await finishRun(project.latest_run_id!, "failed");
      expect((await server.client.post(`/v1/projects/${project.id}/deployments`, {})).status).toBe(409);
      expect(expectBody(await server.client.get(`/v1/projects/${project.id}/deployments`), 200).data).toEqual([]);
    });

    it("queues the latest version to production by default and answers 202 at once", async () => {
      const project = await deployableProject();
      // A newer run that has not finished has recorded no version yet.
      const newer = await server.client.post(`/v1/projects/${project.id}/runs`, { prompt: "add a cart section" });
      expectStatus(newer, 202);

      const created = await server.client.post(`/v1/projects/${project.id}/deployments`);
      expectStatus(created, 202);
      expectQueued(created, project.id, {
        run_id: project.runId,
        target: "production",
        rollback_of: null,
        ready_at: null,
      });
      expect(created.body.id).toMatch(/^dpl_/);
      expect((await server.client.get(created.headers.get("location")!)).body).toEqual(created.body);

      await finishRun(newer.body.id);
      const latest = await server.client.post(`/v1/projects/${project.id}/deployments`, { target: "preview" });
      expect(latest.body).toMatchObject({ run_id: newer.body.id, target: "preview", status: "queued" });
    });

    it("is a conflict while another deployment of the same target is queued or building", async () => {
      const project = await deployableProject();
      const first = expectBody(await server.client.post(`/v1/projects/${project.id}/deployments`), 202);
      const refused = await server.client.post(`/v1/projects/${project.id}/deployments`);
      expectStatus(refused, 409);
      expect(refused.body.error.message).toContain(first.id);
      // Another target is not held up.
      expect((await server.client.post(`/v1/projects/${project.id}/deployments`, { target: "preview" })).status).toBe(
        202,
      );
      await build(first.id);
      expect((await server.client.post(`/v1/projects/${project.id}/deployments`)).status).toBe(202);
    });

    it("deploys the run named by run_id only when it succeeded", async () => {
      const project = await deployableProject();
      const pending = await server.client.post(`/v1/projects/${project.id}/runs`, { prompt: "dark mode" });
      expectStatus(pending, 202);
      const refused = await server.client.post(`/v1/projects/${project.id}/deployments`, { run_id: pending.body.id });
      expectStatus(refused, 409);
      expect(refused.body.error).toMatchObject({ code: "conflict", param: "run_id" });

      const named = await server.client.post(`/v1/projects/${project.id}/deployments`, {
        run_id: project.runId,
        target: "preview",
      });
      expect(named.status).toBe(202);
      expect(named.body).toMatchObject({ run_id: project.runId, target: "preview" });
    });

    it("answers 404 for an unknown project or run, and a run of another project", async () => {
      const project = await deployableProject();
      const other = await deployableProject();
      const noProject = await server.client.post("/v1/projects/prj_0000000000000000/deployments");
      expectStatus(noProject, 404);
      expect(noProject.body.error).toMatchObject({ code: "not_found", param: "project_id" });
      const noRun = await server.client.post(`/v1/projects/${project.id}/deployments`, {
        run_id: "run_0000000000000000",
      });
      expect(noRun.status).toBe(404);
      expect(noRun.body.error).toMatchObject({ code: "not_found", param: "run_id" });
      const foreignRun = await server.client.post(`/v1/projects/${project.id}/deployments`, { run_id: other.runId });
      expect(foreignRun.status).toBe(404);
    });

    it("refuses a target the contract does not know", async () => {
      const project = await deployableProject();
      const bad = await server.client.post(
        `/v1/projects/${project.id}/deployments`,
        invalidBody({ target: "staging" }),
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "invalid_request", param: "target" });
    });

    it("replays a create sent again with the same Idempotency-Key", async () => {
      const project = await deployableProject();
      const headers = { "Idempotency-Key": `dpl-${project.id}` };
      const first = await server.client.post(
        `/v1/projects/${project.id}/deployments`,
        { target: "preview" },
        { headers },
      );
      expectStatus(first, 202);
      const again = await server.client.post(
        `/v1/projects/${project.id}/deployments`,
        { target: "preview" },
        { headers },
      );
      expectStatus(again, 202);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body.id).toBe(first.body.id);
      expect(expectBody(await server.client.get(`/v1/projects/${project.id}/deployments`), 200).data).toHaveLength(1);
    });

    it("records a deployment.queued event", async () => {
      const project = await deployableProject();
      const created = await server.client.post(`/v1/projects/${project.id}/deployments`);
      expectStatus(created, 202);
      const events = await server.client.get("/v1/events?type=deployment.queued&limit=100");
      expectStatus(events, 200);
      const event = events.body.data.find(
        (e) => e.type === "deployment.queued" && e.data.object.id === created.body.id,
      );
      expect(event).toBeDefined();
      expect(event!.data.object).toEqual(created.body);
    });
  });

  describe("progress (worker functions) and rollback", () => {
    it("serves a ready production deployment at the project's url and supersedes the one before", async () => {
      const project = await deployableProject();
      const first = expectBody(await server.client.post(`/v1/projects/${project.id}/deployments`), 202);
      await startDeploymentBuild(server.storage.db, first.id);
      expect(
        expectBody(await server.client.get(`/v1/projects/${project.id}/deployments/${first.id}`), 200).status,
      ).toBe("building");
      await build(first.id);

      const ready = expectBody(await server.client.get(`/v1/projects/${project.id}/deployments/${first.id}`), 200);
      expect(ready).toMatchObject({ status: "ready", error: null });
      expect(origin(ready.url)).toMatch(/^http:\/\/shop-[0-9a-z]{10}\.localhost:\d+$/);
      expect(ready.ready_at).not.toBeNull();
      const projectUrl = expectBody(await server.client.get(`/v1/projects/${project.id}`), 200).url;
      expect(origin(projectUrl)).toBe(origin(ready.url));

      // A preview becoming ready supersedes nothing in production and leaves the project's url.
      const preview = expectBody(
        await server.client.post(`/v1/projects/${project.id}/deployments`, { target: "preview" }),
        202,
      );
      await build(preview.id);
      const previewReady = expectBody(
        await server.client.get(`/v1/projects/${project.id}/deployments/${preview.id}`),
        200,
      );
      expect(origin(previewReady.url)).not.toBe(origin(ready.url));
      expect(origin(expectBody(await server.client.get(`/v1/projects/${project.id}`), 200).url)).toBe(
        origin(ready.url),
      );
      expect(
        expectBody(await server.client.get(`/v1/projects/${project.id}/deployments/${first.id}`), 200).status,
      ).toBe("ready");

      const second = expectBody(await server.client.post(`/v1/projects/${project.id}/deployments`), 202);
      await build(second.id);
      expect(origin(expectBody(await server.client.get(`/v1/projects/${project.id}`), 200).url)).not.toBe(
        origin(ready.url),
      );
      expect(
        expectBody(await server.client.get(`/v1/projects/${project.id}/deployments/${first.id}`), 200).status,
      ).toBe("superseded");
      expect(
        expectBody(await server.client.get(`/v1/projects/${project.id}/deployments/${preview.id}`), 200).status,
      ).toBe("ready");

      const events = await server.client.get("/v1/events?type=deployment.ready&limit=100");
      expectStatus(events, 200);
      const ids = events.body.data.map((e) => e.type === "deployment.ready" && e.data.object.id);
      expect(ids).toEqual(expect.arrayContaining([first.id, second.id, preview.id]));
    });

    it("rolls back to a ready or superseded deployment with a new queued deployment of the same build", async () => {
      const project = await deployableProject();
      const first = expectBody(await server.client.post(`/v1/projects/${project.id}/deployments`), 202);
      await build(first.id);
      const second = expectBody(await server.client.post(`/v1/projects/${project.id}/deployments`), 202);
      await build(second.id);

      const rollback = await server.client.post(`/v1/projects/${project.id}/deployments/${first.id}/rollback`);
      expectStatus(rollback, 202);
      expectQueued(rollback, project.id, { run_id: first.run_id, target: first.target, rollback_of: first.id });
      expect(rollback.body.id).not.toBe(first.id);
      // History is not rewritten: the earlier record is untouched.
      expect(
        expectBody(await server.client.get(`/v1/projects/${project.id}/deployments/${first.id}`), 200).status,
      ).toBe("superseded");

      await build(rollback.body.id);
      expect(
        expectBody(await server.client.get(`/v1/projects/${project.id}/deployments/${second.id}`), 200).status,
      ).toBe("superseded");
      const toSecond = await server.client.post(`/v1/projects/${project.id}/deployments/${second.id}/rollback`);
      expectStatus(toSecond, 202);
      expect(toSecond.body.rollback_of).toBe(second.id);
    });

    it("refuses to roll back to a deployment that was never ready", async () => {
      const project = await deployableProject();
      const queued = expectBody(await server.client.post(`/v1/projects/${project.id}/deployments`), 202);
      const refused = await server.client.post(`/v1/projects/${project.id}/deployments/${queued.id}/rollback`);
      expectStatus(refused, 409);
      expect(refused.body.error.code).toBe("conflict");

      await failDeployment(server.storage.db, queued.id, {
        code: "build_error",
        message: "The build needs an index.html.",
      });
      const failed = (await server.client.get(`/v1/projects/${project.id}/deployments/${queued.id}`)).body;
      expect(failed).toMatchObject({
        status: "failed",
        url: null,
        ready_at: null,
        error: { code: "build_error", message: "The build needs an index.html." },
      });
      expect((await server.client.post(`/v1/projects/${project.id}/deployments/${queued.id}/rollback`)).status).toBe(
        409,
      );
      // A final deployment is not moved again.
      await build(queued.id);
      expect(
        expectBody(await server.client.get(`/v1/projects/${project.id}/deployments/${queued.id}`), 200).status,
      ).toBe("failed");

      const missing = await server.client.post(`/v1/projects/${project.id}/deployments/dpl_0000000000000000/rollback`);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ code: "not_found", param: "deployment_id" });
    });
  });

  describe("list and get", () => {
    it("lists newest first, filters by target and status, and pages with cursors bound to the filters", async () => {
      const project = await deployableProject();
      const created: { id: string; target: string }[] = [];
      for (const target of ["production", "preview", "production", "preview", "production"] as const) {
        created.push(expectBody(await server.client.post(`/v1/projects/${project.id}/deployments`, { target }), 202));
        await build(created.at(-1)!.id);
      }

      const all = await server.client.get(`/v1/projects/${project.id}/deployments`);
      expectStatus(all, 200);
      expect(all.body.data.map((d: { id: string }) => d.id)).toEqual(created.map((d) => d.id).reverse());
      expect(all.body.next_cursor).toBeNull();

      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page: ResponseTo<"GET", "/v1/projects/{project_id}/deployments"> = await server.client.get(
          `/v1/projects/${project.id}/deployments?target=production&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        );
        expectStatus(page, 200);
        for (const d of page.body.data) expect(d.target).toBe("production");
        ids.push(...page.body.data.map((d) => d.id));
        cursor = page.body.next_cursor;
      } while (cursor);
      expect(ids).toEqual(
        created
          .filter((d) => d.target === "production")
          .map((d) => d.id)
          .reverse(),
      );

      const firstPage = await server.client.get(`/v1/projects/${project.id}/deployments?target=production&limit=1`);
      expectStatus(firstPage, 200);
      const otherFilter = await server.client.get(
        `/v1/projects/${project.id}/deployments?target=preview&limit=1&cursor=${encodeURIComponent(firstPage.body.next_cursor!)}`,
      );
      expectStatus(otherFilter, 400);
      expect(otherFilter.body.error.param).toBe("cursor");

      const ready = await server.client.get(`/v1/projects/${project.id}/deployments?status=ready`);
      expectStatus(ready, 200);
      expect(ready.body.data.map((d: { id: string }) => d.id)).toEqual([created[4]!.id, created[3]!.id]);
      const badStatus = await server.client.get(`/v1/projects/${project.id}/deployments?status=done`);
      expectStatus(badStatus, 400);
      expect(badStatus.body.error.param).toBe("status");
    });

    it("answers 404 for an unknown deployment or project", async () => {
      const project = await deployableProject();
      const missing = await server.client.get(`/v1/projects/${project.id}/deployments/dpl_0000000000000000`);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ code: "not_found", param: "deployment_id" });
      const noProject = await server.client.get("/v1/projects/prj_0000000000000000/deployments");
      expectStatus(noProject, 404);
      expect(noProject.body.error.param).toBe("project_id");
    });

    it("hides deployments from another workspace and from the other environment", async () => {
      const project = await deployableProject();
      const deployment = expectBody(await server.client.post(`/v1/projects/${project.id}/deployments`), 202);
      await build(deployment.id);
      const strangers = [
        server.as(await server.createKey({ workspace: "rival" })),
        server.as(await server.createKey({ environment: "test" })),
      ];
      for (const stranger of strangers) {
        expect((await stranger.get(`/v1/projects/${project.id}/deployments/${deployment.id}`)).status).toBe(404);
        expect((await stranger.get(`/v1/projects/${project.id}/deployments`)).status).toBe(404);
        expect((await stranger.post(`/v1/projects/${project.id}/deployments`)).status).toBe(404);
        expect((await stranger.post(`/v1/projects/${project.id}/deployments/${deployment.id}/rollback`)).status).toBe(
          404,
        );
      }
    });

    it("needs deployments:read to read and deployments:write to create or roll back", async () => {
      const project = await deployableProject();
      const reader = server.as(await server.createKey({ scopes: ["deployments:read"] }));
      const writer = server.as(await server.createKey({ scopes: ["deployments:write"] }));
      const denied = await reader.post(`/v1/projects/${project.id}/deployments`);
      expectStatus(denied, 401);
      expect(denied.body.error.code).toBe("insufficient_scope");
      const created = await writer.post(`/v1/projects/${project.id}/deployments`);
      expectStatus(created, 202);
      expectApiError(await writer.get(`/v1/projects/${project.id}/deployments`), 401, "insufficient_scope");
      expect((await reader.get(`/v1/projects/${project.id}/deployments/${created.body.id}`)).status).toBe(200);
    });

    it("goes with its project", async () => {
      const project = await deployableProject();
      const deployment = expectBody(await server.client.post(`/v1/projects/${project.id}/deployments`), 202);
      expect((await server.client.delete(`/v1/projects/${project.id}`)).status).toBe(204);
      expect((await server.client.get(`/v1/projects/${project.id}/deployments/${deployment.id}`)).status).toBe(404);
    });
  });
});
