// The run worker's rules, on both storage drivers, with agents written for each case: the time
// limit, credits checked before the agent and metered during it, writes outside the project, a run
// canceled while queued, and one end per run however often its job is carried out.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AgentError, type Agent, type AgentInput } from "../src/agents/agent.ts";
import { builtinAgent, createBuiltinAgent } from "../src/agents/builtin/agent.ts";
import { createOpenAiAgent } from "../src/agents/openai.ts";
import { abandonAgentRun, cancelAgentRun, getAgentRun, triggerAgentRun } from "../src/domain/agent-runs.ts";
import { purgeUnreferencedBlobs, runTree } from "../src/domain/builds.ts";
import { listEvents } from "../src/domain/events.ts";
import { beginUpload, listFiles } from "../src/domain/files.ts";
import type { Partition } from "../src/domain/partition.ts";
import { createProject, deleteProject } from "../src/domain/projects.ts";
import type { WorkQueue } from "../src/domain/work-queue.ts";
import { ensureWorkspace } from "../src/domain/workspaces.ts";
import { createAgentRunWorker } from "../src/jobs/agent-run-worker.ts";
import { createBuildPool } from "../src/jobs/build-pool/build-pool.ts";
import { createLogger } from "../src/logger.ts";
import { agentRuns, blobs, type Plan } from "../src/storage/schema.ts";
import { forEachDriver, useStorage } from "./support/database.ts";
import { startFakeModel, writesApp } from "./support/fake-model.ts";

/** Queues nothing: these tests carry runs out themselves. */
const noQueue: WorkQueue = { queueAgentRun: async () => {}, queueDeploymentBuild: async () => {} };
const silent = createLogger({ level: "silent" });

/** An agent of kind `kind` that does `work`. */
const agentDoing = (work: (input: AgentInput) => Promise<void>, kind: Agent["kind"] = "model"): Agent => ({
  kind,
  async run(input) {
    await work(input);
    return { summary: "done" };
  },
});

/** Resolves when the signal aborts, rejecting with its reason: an agent waiting on a slow model. */
const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));

forEachDriver("the agent-run worker", (driver) => {
  const storage = useStorage(driver);

  async function newProject(
    options: {
      plan?: Plan;
      environment?: "live" | "test";
      agent?: "coding-agent-1" | "coding-agent-3";
      maxCredits?: number;
    } = {},
  ) {
    const { workspace } = await ensureWorkspace(storage().db, {
      slug: `ws-${Math.random().toString(36).slice(2, 10)}`,
      plan: options.plan ?? "pro",
    });
    const partition: Partition = { workspaceId: workspace.id, environment: options.environment ?? "live" };
    const project = await createProject(storage().db, noQueue, partition, {
      name: "Case",
      prompt: "A page",
      agent: options.agent,
      max_credits: options.maxCredits,
    });
    return { partition, project, runId: project.latest_run_id! };
  }
  /** A committed file of the project. */
  async function upload(partition: Partition, projectId: string, path: string, content: Uint8Array, type: string) {
    const upload = await beginUpload(storage().db, partition, projectId, path);
    await upload.write(content);
    return upload.commit({ path, contentType: type });
  }
  const worker = (agent: Agent, timeoutMs = 60_000) =>
    createAgentRunWorker({ db: storage().db, agent, timeoutMs, logger: silent, cancelCheckMs: 50 });
  const runEvents = async (partition: Partition, runId: string) =>
    (await listEvents(storage().db, partition, { limit: 100 }, {})).items
      .filter((event) => (event.data.object as { id: string }).id === runId)
      .map((event) => event.type)
      .sort();

  it("fails a run that passes its time limit with `timeout`, writing nothing", async () => {
    const { partition, project, runId } = await newProject();
    const slow = agentDoing(async (input) => {
      input.files.write("index.html", "<p>half done</p>");
      await untilAborted(input.signal);
    });
    await worker(slow, 300)(runId);
    const run = await getAgentRun(storage().db, partition, project.id, runId);
    expect(run).toMatchObject({ status: "failed", error: { code: "timeout" } });
    expect(run.error!.message).toContain("time limit");
    expect((await listFiles(storage().db, partition, project.id, { limit: 10 })).items).toEqual([]);
    expect(await runEvents(partition, runId)).toEqual(["agent_run.failed", "agent_run.queued", "agent_run.started"]);
  });

  it("fails a built-in run whose edit passes the build threads' time limit with `agent_error` naming it, writing nothing", async () => {
    const { partition, project, runId } = await newProject();
    const buildPool = createBuildPool({ threads: 1, timeoutMs: 1 });
    try {
      await worker(createBuiltinAgent(buildPool.editProject))(runId);
    } finally {
      await buildPool.close();
    }
    const run = await getAgentRun(storage().db, partition, project.id, runId);
    expect(run).toMatchObject({
      status: "failed",
      credits_used: 0,
      error: {
        code: "agent_error",
        message: "The built-in agent passed its time limit of 1 ms while editing the project's files.",
      },
    });
    expect((await listFiles(storage().db, partition, project.id, { limit: 10 })).items).toEqual([]);
  });

  it("fails `insufficient_credits` before calling the agent when the credits left cannot pay for the run", async () => {
    const { partition, project, runId } = await newProject({ plan: "free", agent: "coding-agent-3" });
    // The free plan's 100 credits, all used by an earlier run this period.
    const earlier = await newProject({ plan: "free" });
    await storage()
      .db.update(agentRuns)
      .set({ workspaceId: partition.workspaceId, status: "succeeded", creditsUsed: 99, finishedAt: new Date() })
      .where(eq(agentRuns.id, earlier.runId));
    let called = false;
    await worker(agentDoing(async () => void (called = true), "builtin"))(runId);
    expect(called).toBe(false);
    const run = await getAgentRun(storage().db, partition, project.id, runId);
    expect(run).toMatchObject({ status: "failed", credits_used: 0, error: { code: "insufficient_credits" } });
    expect(run.error!.message).toContain("1 credits left");
    expect(await runEvents(partition, runId)).toEqual(["agent_run.failed", "agent_run.queued"]);
  });

  it("lets only one of two runs starting at once spend credits that pay for one", async () => {
    const first = await newProject({ plan: "free", agent: "coding-agent-3" });
    // A second project of the same workspace.
    const second = await createProject(storage().db, noQueue, first.partition, {
      name: "Other",
      prompt: "x",
      agent: "coding-agent-3",
    });
    const earlier = await newProject({ plan: "free" });
    await storage()
      .db.update(agentRuns)
      .set({ workspaceId: first.partition.workspaceId, status: "succeeded", creditsUsed: 95, finishedAt: new Date() })
      .where(eq(agentRuns.id, earlier.runId));
    // 5 credits left; each run costs 3. The slow agent keeps both runs running at the same time.
    const slow = agentDoing(async (input) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      input.signal.throwIfAborted();
    }, "builtin");
    await Promise.all([worker(slow)(first.runId), worker(slow)(second.latest_run_id!)]);
    const statuses = [
      await getAgentRun(storage().db, first.partition, first.project.id, first.runId),
      await getAgentRun(storage().db, first.partition, second.id, second.latest_run_id!),
    ].map((run) => `${run.status}:${run.error?.code ?? "-"}:${run.credits_used}`);
    expect(statuses.sort()).toEqual(["failed:insufficient_credits:0", "succeeded:-:3"]);
  });

  it("stops a model run whose tokens pass the credits left, charging what was left", async () => {
    const { partition, project, runId } = await newProject({ plan: "free" });
    const hungry = agentDoing(async (input) => {
      for (let turn = 0; turn < 1000; turn++) input.meter.addTokens(1_000);
    });
    await worker(hungry)(runId);
    expect(await getAgentRun(storage().db, partition, project.id, runId)).toMatchObject({
      status: "failed",
      credits_used: 100,
      error: { code: "insufficient_credits" },
    });
  });

  it("gives the agent the run's attachments; an attached image reaches the model as an image part", async () => {
    const { partition, project, runId } = await newProject();
    await cancelAgentRun(storage().db, partition, project.id, runId);
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const logo = await upload(partition, project.id, "img/logo.png", png, "image/png");
    const notes = await upload(
      partition,
      project.id,
      "notes.md",
      new TextEncoder().encode("Warm colours"),
      "text/markdown",
    );
    const run = await triggerAgentRun(storage().db, noQueue, partition, project.id, {
      prompt: "Put the logo on the page",
      attachments: [{ file_id: logo.id }, { file_id: notes.id }, { file_id: logo.id }],
    });
    expect(run.attachments).toEqual([
      { file_id: logo.id, path: "img/logo.png", content_type: "image/png", size_bytes: 8 },
      { file_id: notes.id, path: "notes.md", content_type: "text/markdown", size_bytes: 12 },
    ]);
    expect(await getAgentRun(storage().db, partition, project.id, run.id)).toEqual(run);

    const model = await startFakeModel(writesApp({ title: "Logo" }));
    try {
      await worker(createOpenAiAgent({ baseUrl: model.url, model: "fake-1" }))(run.id);
    } finally {
      await model.close();
    }
    expect((await getAgentRun(storage().db, partition, project.id, run.id)).status).toBe("succeeded");
    const parts = model.requests[0]!.messages[1]!.content;
    expect(parts).toContainEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${Buffer.from(png).toString("base64")}` },
    });
    expect(parts).toContainEqual({
      type: "text",
      text: "Attached file notes.md (text/markdown, 12 bytes):\nWarm colours",
    });
  });

  it("fails `budget_exceeded` before the built-in agent runs when its price passes the run's max_credits, charging nothing", async () => {
    const { partition, project, runId } = await newProject({ agent: "coding-agent-3", maxCredits: 2 });
    await worker(builtinAgent)(runId);
    const run = await getAgentRun(storage().db, partition, project.id, runId);
    expect(run).toMatchObject({
      status: "failed",
      credits_used: 0,
      max_credits: 2,
      version_id: null,
      error: { code: "budget_exceeded", message: "This run needs 3 credits; its max_credits is 2." },
    });
    expect(await runEvents(partition, runId)).toEqual(["agent_run.failed", "agent_run.queued"]);
    expect((await listFiles(storage().db, partition, project.id, { limit: 10 })).items).toEqual([]);
    // A budget that pays for it: the run is charged its price.
    const paid = await newProject({ agent: "coding-agent-3", maxCredits: 3 });
    await worker(builtinAgent)(paid.runId);
    expect(await getAgentRun(storage().db, paid.partition, paid.project.id, paid.runId)).toMatchObject({
      status: "succeeded",
      credits_used: 3,
    });
  });

  it("stops a model run whose tokens pass its max_credits, charging max_credits and writing nothing", async () => {
    const { partition, project, runId } = await newProject({ maxCredits: 2 });
    // Each answer writes a file and reports 1,500 tokens: the second passes the 2,000 tokens that
    // 2 credits pay for.
    const model = await startFakeModel((request) => ({
      toolCalls: [{ name: "write_file", arguments: { path: `page-${request.index}.html`, content: "<p>more</p>" } }],
      usage: { total_tokens: 1500 },
    }));
    try {
      await worker(createOpenAiAgent({ baseUrl: model.url, model: "fake-1" }))(runId);
    } finally {
      await model.close();
    }
    expect(model.requests).toHaveLength(2);
    const run = await getAgentRun(storage().db, partition, project.id, runId);
    expect(run).toMatchObject({
      status: "failed",
      credits_used: 2,
      version_id: null,
      error: { code: "budget_exceeded", message: "The run would use more than its max_credits of 2." },
    });
    expect((await listFiles(storage().db, partition, project.id, { limit: 10 })).items).toEqual([]);
    // When the workspace's credits left are fewer than the budget, they are what stops the run.
    const poor = await newProject({ plan: "free", maxCredits: 500 });
    await worker(
      agentDoing(async (input) => {
        for (let turn = 0; turn < 1000; turn++) input.meter.addTokens(1_000);
      }),
    )(poor.runId);
    expect(await getAgentRun(storage().db, poor.partition, poor.project.id, poor.runId)).toMatchObject({
      status: "failed",
      credits_used: 100,
      error: { code: "insufficient_credits" },
    });
  });

  it("fails `invalid_output` when the agent writes outside the project, and writes nothing", async () => {
    const { partition, project, runId } = await newProject();
    const escaping = agentDoing(async (input) => {
      input.files.write("index.html", "<p>ok</p>");
      input.files.write("../../etc/passwd", "root");
    });
    await worker(escaping)(runId);
    const run = await getAgentRun(storage().db, partition, project.id, runId);
    expect(run).toMatchObject({ status: "failed", error: { code: "invalid_output" } });
    expect((await listFiles(storage().db, partition, project.id, { limit: 10 })).items).toEqual([]);
  });

  it("does not start a run canceled while queued", async () => {
    const { partition, project, runId } = await newProject();
    await cancelAgentRun(storage().db, partition, project.id, runId);
    let called = false;
    await worker(agentDoing(async () => void (called = true)))(runId);
    expect(called).toBe(false);
    expect((await getAgentRun(storage().db, partition, project.id, runId)).status).toBe("canceled");
    expect(await runEvents(partition, runId)).toEqual(["agent_run.canceled", "agent_run.queued"]);
  });

  it("aborts a running run as soon as it is canceled, told by the events' notification, not the status poll", async () => {
    const { partition, project, runId } = await newProject();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const waiting = agentDoing(async (input) => {
      started();
      await untilAborted(input.signal);
    });
    // A poll once a minute: only the notification of `agent_run.canceled` can end the run in time.
    const carryOut = createAgentRunWorker({
      db: storage().db,
      agent: waiting,
      timeoutMs: 60_000,
      logger: silent,
      changes: storage().changes,
      cancelCheckMs: 60_000,
    });
    const carried = carryOut(runId);
    await running;
    const canceledAt = performance.now();
    await cancelAgentRun(storage().db, partition, project.id, runId);
    await carried;
    expect(performance.now() - canceledAt).toBeLessThan(20_000);
    expect((await getAgentRun(storage().db, partition, project.id, runId)).status).toBe("canceled");
  });

  it("ends a run once when two workers carry it out at the same time, or again after it ended", async () => {
    const { partition, project, runId } = await newProject();
    const carryOut = worker(builtinAgent);
    await Promise.all([carryOut(runId), carryOut(runId)]);
    await carryOut(runId);
    const run = await getAgentRun(storage().db, partition, project.id, runId);
    expect(run).toMatchObject({ status: "succeeded", credits_used: 1 });
    expect(await runEvents(partition, runId)).toEqual(["agent_run.queued", "agent_run.started", "agent_run.succeeded"]);
    const paths = (await listFiles(storage().db, partition, project.id, { limit: 10 })).items
      .map((file) => file.path)
      .sort();
    expect(paths).toEqual(["app.js", "app.json", "index.html", "style.css"]);
  });

  it("finishes a run left `running` by a worker that died, from the files it started with", async () => {
    const { partition, project, runId } = await newProject();
    // What a dead worker leaves: the run started, its agent's writes lost with the process.
    await storage()
      .db.update(agentRuns)
      .set({ status: "running", startedAt: new Date() })
      .where(and(eq(agentRuns.id, runId)));
    await worker(builtinAgent)(runId);
    expect(await getAgentRun(storage().db, partition, project.id, runId)).toMatchObject({ status: "succeeded" });
  });

  it("ends a run whose job was given up as `internal_error`, once", async () => {
    const { partition, project, runId } = await newProject();
    expect(await abandonAgentRun(storage().db, runId)).toMatchObject({
      status: "failed",
      error: { code: "internal_error" },
    });
    expect(await abandonAgentRun(storage().db, runId)).toBeUndefined();
    expect((await getAgentRun(storage().db, partition, project.id, runId)).status).toBe("failed");
    expect(await runEvents(partition, runId)).toEqual(["agent_run.failed", "agent_run.queued"]);
  });

  it("records the files a run ended with as its snapshot, sharing content, and housekeeping drops what nothing refers to", async () => {
    const first = await newProject();
    const second = await createProject(storage().db, noQueue, first.partition, { name: "Case", prompt: "A page" });
    await worker(builtinAgent)(first.runId);
    await worker(builtinAgent)(second.latest_run_id!);
    const snapshot = await runTree(storage().db, first.runId);
    expect(snapshot.map((file) => file.path)).toEqual(["app.js", "app.json", "index.html", "style.css"]);
    // Same name, prompt and template: the same bytes, stored once for both runs.
    expect(await runTree(storage().db, second.latest_run_id!)).toEqual(snapshot);
    const stored = async () =>
      (await storage().db.select({ sha256: blobs.sha256 }).from(blobs)).map((row) => row.sha256).sort();
    expect(await stored()).toEqual(snapshot.map((file) => file.sha256).sort());

    await deleteProject(storage().db, first.partition, first.project.id);
    expect(await purgeUnreferencedBlobs(storage().db)).toBe(0);
    await deleteProject(storage().db, first.partition, second.id);
    expect(await purgeUnreferencedBlobs(storage().db)).toBe(4);
    expect(await stored()).toEqual([]);
  });

  describe("test data", () => {
    it("is never charged", async () => {
      const { partition, project, runId } = await newProject({
        environment: "test",
        plan: "free",
        agent: "coding-agent-3",
      });
      await worker(builtinAgent)(runId);
      expect(await getAgentRun(storage().db, partition, project.id, runId)).toMatchObject({
        status: "succeeded",
        credits_used: 0,
      });
    });

    it("is held to its budget all the same", async () => {
      const { partition, project, runId } = await newProject({
        environment: "test",
        agent: "coding-agent-3",
        maxCredits: 2,
      });
      await worker(builtinAgent)(runId);
      expect(await getAgentRun(storage().db, partition, project.id, runId)).toMatchObject({
        status: "failed",
        credits_used: 0,
        error: { code: "budget_exceeded" },
      });
    });
  });

  it("turns an unexpected agent failure into `agent_error` without its details", async () => {
    const { partition, project, runId } = await newProject();
    await worker(
      agentDoing(async () => {
        throw new TypeError("secret internals at /srv/app.js:12");
      }),
    )(runId);
    const run = await getAgentRun(storage().db, partition, project.id, runId);
    expect(run).toMatchObject({
      status: "failed",
      error: { code: "agent_error", message: "The agent failed unexpectedly." },
    });
    await worker(
      agentDoing(async () => {
        throw new AgentError("agent_error", "never reached");
      }),
    )(runId);
    expect((await getAgentRun(storage().db, partition, project.id, runId)).error!.message).toBe(
      "The agent failed unexpectedly.",
    );
  });
});
