// A fair share of the workers: a tenant (one environment of a workspace) that queues a lot does not
// delay another's runs or builds, test-mode work does not delay live work, a tenant keeps to its
// plan's cap, and every queued job still runs, in its tenant's order. With the default concurrency
// (AGENT_CONCURRENCY 2) and an agent that takes a steady 250 ms a run, so that a queue of 60 runs
// would hold a newcomer for over ten seconds if it were served first in, first out.
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../src/agents/agent.ts";
import { queueDepths } from "../src/domain/fair-share.ts";
import type { Database } from "../src/storage/index.ts";
import { agentRuns, workspaces } from "../src/storage/schema.ts";
import { expectBody, type ApiClient } from "./support/api-client.ts";
import { forEachDriver, postgresDriver, type ProcessDatabase } from "./support/database.ts";
import { final, pollUntil } from "./support/poll.ts";
import { startTestServer, suiteServer, type TestServer } from "./support/server.ts";

/** An agent that writes a page and takes `ms` doing it. */
function pacedAgent(ms: number): Agent {
  return {
    kind: "builtin",
    async run({ files, project, signal }) {
      await sleep(ms, undefined, { signal });
      files.write("index.html", `<!doctype html><title>${project.name}</title><h1>${project.id}</h1>`);
      return { summary: "Wrote index.html." };
    },
  };
}

/** How long a newcomer may wait behind another tenant's queue: max(3 × its time alone, 5 s). */
const allowance = (aloneMs: number) => Math.max(3 * aloneMs, 5000);

async function createProject(client: ApiClient, name: string): Promise<string> {
  return expectBody(await client.post("/v1/projects", { name, prompt: `The ${name} page.` }), 201).id;
}

/** Milliseconds from creating a project to its first run's end; the project must be ready. */
async function timeProject(client: ApiClient, name: string): Promise<{ id: string; ms: number }> {
  const started = Date.now();
  const id = await createProject(client, name);
  const project = await pollUntil(client, `/v1/projects/${id}`, final, 60_000);
  expect(project.status).toBe("ready");
  return { id, ms: Date.now() - started };
}

/** Milliseconds from creating a deployment of `projectId` to its end; it must be ready. */
async function timeDeployment(client: ApiClient, projectId: string, target: "production" | "preview") {
  const started = Date.now();
  const created = expectBody(await client.post(`/v1/projects/${projectId}/deployments`, { target }), 202);
  const deployment = await pollUntil(client, `/v1/projects/${projectId}/deployments/${created.id}`, final, 60_000);
  expect(deployment.status).toBe("ready");
  return Date.now() - started;
}

/** Waits until every project of `client`'s partition is ready, for up to a minute. */
async function allReady(client: ApiClient, count: number): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const page = expectBody(await client.get("/v1/projects?limit=100"), 200);
    expect(page.data).toHaveLength(count);
    const statuses = page.data.map((project) => project.status);
    expect(statuses.filter((status) => status === "failed")).toEqual([]);
    if (statuses.every((status) => status === "ready")) return;
    if (Date.now() > deadline) throw new Error(`projects not ready: ${statuses.join(", ")}`);
    await sleep(250);
  }
}

/** Samples a workspace's running runs every 20 ms until none is queued or running; the most seen at once. */
async function mostRunningAtOnce(db: Database, slug: string): Promise<number> {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.slug, slug));
  let most = 0;
  for (;;) {
    const [counts] = await db
      .select({
        running: sql<number>`count(*) filter (where status = 'running')::int`,
        open: sql<number>`count(*) filter (where status in ('queued', 'running'))::int`,
      })
      .from(agentRuns)
      .where(eq(agentRuns.workspaceId, workspace!.id));
    most = Math.max(most, counts!.running);
    if (counts!.open === 0) return most;
    await sleep(20);
  }
}

forEachDriver("fair share of the workers", (driver) => {
  const server = suiteServer(driver, { workers: { agent: pacedAgent(250) } });
  let floodClient: ApiClient;
  let flood: string[];
  let newcomer: ApiClient;
  let newcomerProject: string;

  beforeAll(async () => {
    floodClient = server.as(await server.createKey({ workspace: "flood", plan: "enterprise" }));
    newcomer = server.as(await server.createKey({ workspace: "newcomer", plan: "enterprise" }));
  });

  it("serves a newcomer's run, and a test-mode run, next, behind another tenant's 60; all 60 run in order", async () => {
    const alone = await timeProject(newcomer, "alone");
    newcomerProject = alone.id;

    flood = [];
    for (let i = 0; i < 60; i++) flood.push(await createProject(floodClient, `flood ${i}`));
    const floodTest = server.as(await server.createKey({ workspace: "flood", environment: "test" }));
    const [behind, testMode] = await Promise.all([
      timeProject(newcomer, "behind"),
      timeProject(floodTest, "test mode"),
    ]);
    expect(behind.ms).toBeLessThanOrEqual(allowance(alone.ms));
    expect(testMode.ms).toBeLessThanOrEqual(allowance(alone.ms));
    // The flood was still far from done: a fair share, not an idle queue, let them through.
    const stillQueued = await server.storage.db
      .select({ count: sql<number>`count(*)::int` })
      .from(agentRuns)
      .where(eq(agentRuns.status, "queued"));
    expect(stillQueued[0]!.count).toBeGreaterThan(10);

    await allReady(floodClient, 60);
    // First in, first out within the tenant: its runs started in the order they were queued, but
    // for two workers' claims a moment apart, which may record their starts the other way round.
    const started = await server.storage.db
      .select({ projectId: agentRuns.projectId })
      .from(agentRuns)
      .innerJoin(workspaces, eq(workspaces.id, agentRuns.workspaceId))
      .where(and(eq(workspaces.slug, "flood"), eq(agentRuns.environment, "live")))
      .orderBy(agentRuns.startedAt);
    const startedAt = started.map((row) => row.projectId);
    expect(startedAt.toSorted()).toEqual(flood.toSorted());
    for (const [queuedAt, projectId] of flood.entries()) {
      expect(Math.abs(startedAt.indexOf(projectId) - queuedAt), projectId).toBeLessThanOrEqual(1);
    }
  }, 120_000);

  it("builds a newcomer's deployment next, behind another tenant's 40", async () => {
    const alone = await timeDeployment(newcomer, newcomerProject, "preview");
    const queued = flood.slice(0, 20).flatMap((projectId) =>
      (["production", "preview"] as const).map(async (target) => {
        const created = await floodClient.post(`/v1/projects/${projectId}/deployments`, { target });
        return expectBody(created, 202).id;
      }),
    );
    const deploymentIds = await Promise.all(queued);
    const behind = await timeDeployment(newcomer, newcomerProject, "production");
    expect(behind).toBeLessThanOrEqual(allowance(alone));

    for (const [index, id] of deploymentIds.entries()) {
      const projectId = flood[Math.floor(index / 2)]!;
      const deployment = await pollUntil(floodClient, `/v1/projects/${projectId}/deployments/${id}`, final, 90_000);
      expect(deployment.status).toBe("ready");
    }
  }, 150_000);

  it("holds a free tenant to one run at a time while the other slot serves others; pbs queue shows the depth", async () => {
    const free = server.as(await server.createKey({ workspace: "small", plan: "free" }));
    const projects = await Promise.all([0, 1, 2, 3].map((i) => createProject(free, `small ${i}`)));
    const other = createProject(newcomer, "beside the free tenant").then((id) =>
      pollUntil(newcomer, `/v1/projects/${id}`, final, 30_000),
    );
    const depths = await queueDepths(server.storage.db);
    expect(depths.find((depth) => depth.workspace === "small")).toMatchObject({ plan: "free", environment: "live" });
    expect(depths.find((depth) => depth.workspace === "small")!.runsQueued).toBeGreaterThanOrEqual(3);

    expect(await mostRunningAtOnce(server.storage.db, "small")).toBe(1);
    expect((await other).status).toBe("ready");
    await allReady(free, projects.length);
  }, 60_000);
});

describe.skipIf(postgresDriver.skipReason !== undefined)("fair share across two replicas on PostgreSQL", () => {
  let database: ProcessDatabase;
  let replicas: TestServer[] = [];

  beforeAll(async () => {
    database = await postgresDriver.forProcess();
    const shared = { ...postgresDriver, open: () => database.open() };
    // Team plans capped at 3 runs: two replicas of 2 workers could otherwise run 4 of one tenant.
    replicas = await Promise.all(
      [0, 1].map(() =>
        startTestServer(shared, {
          workers: { agent: pacedAgent(250) },
          env: { PLAN_RUN_CONCURRENCY: "team=3" },
        }),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await database?.dispose();
  });

  it("serves another tenant's run next on either replica, and holds a tenant to its cap on both together", async () => {
    const [first, second] = replicas as [TestServer, TestServer];
    const newcomer = second.as(await second.createKey({ workspace: "newcomer", plan: "team" }));
    const alone = await timeProject(newcomer, "alone");

    const floodClient = first.as(await first.createKey({ workspace: "flood", plan: "team" }));
    for (let i = 0; i < 40; i++) await createProject(floodClient, `flood ${i}`);
    const most = mostRunningAtOnce(first.storage.db, "flood");
    const behind = await timeProject(newcomer, "behind");
    expect(behind.ms).toBeLessThanOrEqual(allowance(alone.ms));
    expect(await most).toBe(3);
    await allReady(floodClient, 40);
  }, 120_000);
});
