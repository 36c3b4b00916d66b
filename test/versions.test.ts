// Versions over HTTP on both storage drivers: recorded by runs, checkpoints, restores and forks,
// and deployed. The tests play the run and build workers themselves (the server runs none).
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { builtinAgent } from "../src/agents/builtin/agent.ts";
import { readBlobBytes, versionTree } from "../src/domain/builds.ts";
import { createAgentRunWorker } from "../src/jobs/agent-run-worker.ts";
import { createBuildPool, type BuildPool } from "../src/jobs/build-pool/build-pool.ts";
import { createDeploymentWorker } from "../src/jobs/deployment-worker.ts";
import { createLogger } from "../src/logger.ts";
import { randomBase62 } from "../src/storage/ids.ts";
import { deployments, projects } from "../src/storage/schema.ts";
import { expectApiError, expectBody, invalidBody } from "./support/api-client.ts";
import { openApp } from "./support/apps-client.ts";
import { forEachDriver } from "./support/database.ts";
import { suiteServer } from "./support/server.ts";

forEachDriver("versions", (driver) => {
  const server = suiteServer(driver);
  let buildPool: BuildPool;
  beforeAll(() => {
    buildPool = createBuildPool({ threads: 1, timeoutMs: 60_000 });
  });
  afterAll(() => buildPool?.close());

  const logger = createLogger({ level: "silent" });
  const finishRun = (runId: string) =>
    createAgentRunWorker({ db: server.storage.db, agent: builtinAgent, timeoutMs: 60_000, logger })(runId);
  const build = (deploymentId: string) =>
    createDeploymentWorker({ db: server.storage.db, apps: server.apps, logger, buildSite: buildPool.buildSite })(
      deploymentId,
    );

  /** The project's files as path → sha256, as the Files API lists them. */
  async function projectFiles(projectId: string): Promise<Record<string, string>> {
    const page = expectBody(await server.client.get(`/v1/projects/${projectId}/files?limit=100`), 200);
    return Object.fromEntries(page.data.map((file) => [file.path, file.sha256]));
  }
  /** A version's tree as path → sha256. */
  async function treeOf(versionId: string): Promise<Record<string, string>> {
    return Object.fromEntries(
      (await versionTree(server.storage.db, versionId)).map((file) => [file.path, file.sha256]),
    );
  }

  /** A project after its first run (version 1) and a second run (version 2). */
  async function twoVersions() {
    const project = expectBody(
      await server.client.post("/v1/projects", { name: "Recipes", prompt: "A recipe planner with a rating" }),
      201,
    );
    await finishRun(project.latest_run_id!);
    const second = expectBody(
      await server.client.post(`/v1/projects/${project.id}/runs`, { prompt: "Add an about section" }),
      202,
    );
    await finishRun(second.id);
    const first = expectBody(await server.client.get(`/v1/projects/${project.id}/runs/${project.latest_run_id}`), 200);
    const run = expectBody(await server.client.get(`/v1/projects/${project.id}/runs/${second.id}`), 200);
    return { project, firstRun: first, secondRun: run };
  }

  it("records a version for each run that changed the files, numbered from 1, newest first", async () => {
    const { project, firstRun, secondRun } = await twoVersions();
    const list = expectBody(await server.client.get(`/v1/projects/${project.id}/versions`), 200);
    expect(list.data.map((version) => [version.number, version.source, version.agent_run_id])).toEqual([
      [2, "agent_run", secondRun.id],
      [1, "agent_run", firstRun.id],
    ]);
    expect(firstRun.version_id).toBe(list.data[1]!.id);
    expect(secondRun.version_id).toBe(list.data[0]!.id);
    expect(list.data[0]).toMatchObject({ project_id: project.id, restored_from: null, message: secondRun.summary });
    expect(list.data[0]!.file_count).toBe(4);
    const one = expectBody(await server.client.get(`/v1/projects/${project.id}/versions/${list.data[1]!.id}`), 200);
    expect(one).toEqual(list.data[1]);
    // Each version's tree names the content the run left; unchanged files share their blobs.
    const [v2, v1] = [await treeOf(list.data[0]!.id), await treeOf(list.data[1]!.id)];
    expect(v2["index.html"]).not.toBe(v1["index.html"]);
    expect(v2["style.css"]).toBe(v1["style.css"]);
    expect(await projectFiles(project.id)).toEqual(v2);

    const events = expectBody(await server.client.get(`/v1/events?type=version.created&limit=100`), 200);
    const recorded = events.data.map((event) => (event.type === "version.created" ? event.data.object.id : undefined));
    expect(recorded).toEqual(expect.arrayContaining([list.data[0]!.id, list.data[1]!.id]));
  });

  it("diffs version 2 against 1: index.html modified, its + lines the second prompt's change", async () => {
    const { project } = await twoVersions();
    const [v2, v1] = expectBody(await server.client.get(`/v1/projects/${project.id}/versions`), 200).data;
    const diff = expectBody(await server.client.get(`/v1/projects/${project.id}/versions/${v2!.id}/diff`), 200);
    expect(diff).toMatchObject({ base_version_id: v1!.id, version_id: v2!.id, truncated: false });
    const index = diff.files.find((file) => file.path === "index.html")!;
    expect(index).toMatchObject({ status: "modified", binary: false });
    const added = index.patch!.split("\n").filter((line) => line.startsWith("+") && !line.startsWith("+++"));
    expect(added.join("\n")).toContain('<section class="panel text-section" id="about">');
    expect(added.length).toBe(index.additions);
    expect(diff.files.map((file) => file.path)).not.toContain("style.css");
  });

  it("stores what changed only: checkpoints of a 50-file project grow the blobs by the changed files", async () => {
    const project = expectBody(await server.client.post("/v1/projects", { name: "Many", prompt: "A notes app" }), 201);
    await finishRun(project.latest_run_id!);
    const upload = async (path: string, text: string) => {
      const form = new FormData();
      form.append("path", path);
      form.append("file", new Blob([text], { type: "text/plain" }), path);
      return expectBody(await server.client.request("POST", `/v1/projects/${project.id}/files`, { raw: form }), 201).id;
    };
    let changing = "";
    for (let i = 0; i < 46; i++) {
      const id = await upload(`notes/${i}.txt`, `note ${i} of ${project.id}`);
      if (i === 0) changing = id;
    }
    const blobCount = async () =>
      Number((await server.storage.db.execute<{ n: string }>(sql`select count(*) as n from blobs`)).rows[0]!.n);
    expectBody(await server.client.post(`/v1/projects/${project.id}/versions`, {}), 201);
    const before = await blobCount();
    for (let round = 0; round < 10; round++) {
      expect((await server.client.delete(`/v1/projects/${project.id}/files/${changing}`)).status).toBe(204);
      changing = await upload("notes/0.txt", `round ${round} of ${project.id}`);
      const version = expectBody(await server.client.post(`/v1/projects/${project.id}/versions`, {}), 201);
      expect(version.file_count).toBe(50);
    }
    expect((await blobCount()) - before).toBe(10);

    // A project's versions go with it.
    expect((await server.client.delete(`/v1/projects/${project.id}`)).status).toBe(204);
    const left = await server.storage.db.execute<{ n: string }>(
      sql`select count(*) as n from versions where project_id = ${project.id}`,
    );
    expect(Number(left.rows[0]!.n)).toBe(0);
  });

  it("records no version for a run that changed nothing, and says why a deployment of it is refused", async () => {
    const { project } = await twoVersions();
    const idle = expectBody(
      await server.client.post(`/v1/projects/${project.id}/runs`, { prompt: "Connect it to Stripe" }),
      202,
    );
    await finishRun(idle.id);
    const run = expectBody(await server.client.get(`/v1/projects/${project.id}/runs/${idle.id}`), 200);
    expect(run).toMatchObject({ status: "succeeded", version_id: null });
    expect(run.summary).toMatch(/^Changed nothing/);
    const list = expectBody(await server.client.get(`/v1/projects/${project.id}/versions`), 200);
    expect(list.data).toHaveLength(2);
    expectApiError(
      await server.client.post(`/v1/projects/${project.id}/deployments`, { run_id: idle.id }),
      409,
      "conflict",
      "run_id",
    );
  });

  it("restores a version: the files become its files byte for byte, as a new version", async () => {
    const { project } = await twoVersions();
    const [, v1] = expectBody(await server.client.get(`/v1/projects/${project.id}/versions`), 200).data;
    const key = crypto.randomUUID();
    const restored = expectBody(
      await server.client.post(`/v1/projects/${project.id}/versions/${v1!.id}/restore`, undefined, {
        headers: { "Idempotency-Key": key },
      }),
      201,
    );
    expect(restored).toMatchObject({ number: 3, source: "restore", restored_from: v1!.id, agent_run_id: null });
    expect(await treeOf(restored.id)).toEqual(await treeOf(v1!.id));
    expect(await projectFiles(project.id)).toEqual(await treeOf(v1!.id));
    // A retry is answered once.
    const again = await server.client.post(`/v1/projects/${project.id}/versions/${v1!.id}/restore`, undefined, {
      headers: { "Idempotency-Key": key },
    });
    expect(expectBody(again, 201).id).toBe(restored.id);
    expect(expectBody(await server.client.get(`/v1/projects/${project.id}/versions`), 200).data).toHaveLength(3);
  });

  it("refuses a restore while a run is not final, and unknown or foreign versions by name", async () => {
    const { project } = await twoVersions();
    const [v2] = expectBody(await server.client.get(`/v1/projects/${project.id}/versions`), 200).data;
    const queued = expectBody(await server.client.post(`/v1/projects/${project.id}/runs`, { prompt: "More" }), 202);
    expectApiError(await server.client.post(`/v1/projects/${project.id}/versions/${v2!.id}/restore`), 409, "conflict");
    await finishRun(queued.id);

    expectApiError(
      await server.client.get(`/v1/projects/${project.id}/versions/ver_0000000000000000`),
      404,
      "not_found",
      "version_id",
    );
    const other = expectBody(await server.client.post("/v1/projects", { name: "Other", prompt: "A notes app" }), 201);
    expectApiError(
      await server.client.get(`/v1/projects/${other.id}/versions/${v2!.id}`),
      404,
      "not_found",
      "version_id",
    );
    expectApiError(
      await server.client.get(`/v1/projects/prj_0000000000000000/versions`),
      404,
      "not_found",
      "project_id",
    );
  });

  it("checkpoints the files as they are after uploads", async () => {
    const { project } = await twoVersions();
    const form = new FormData();
    form.append("path", "notes.txt");
    form.append("file", new Blob(["remember the milk"], { type: "text/plain" }), "notes.txt");
    expectBody(await server.client.request("POST", `/v1/projects/${project.id}/files`, { raw: form }), 201);
    const checkpoint = expectBody(
      await server.client.post(`/v1/projects/${project.id}/versions`, { message: "Before the redesign" }),
      201,
    );
    expect(checkpoint).toMatchObject({
      number: 3,
      source: "checkpoint",
      message: "Before the redesign",
      file_count: 5,
    });
    expect(Object.keys(await treeOf(checkpoint.id))).toContain("notes.txt");
    expectApiError(
      await server.client.post(`/v1/projects/${project.id}/versions`, invalidBody({ message: "" })),
      400,
      "invalid_request",
      "message",
    );
  });

  it("forks a project at a version: its files, its own version 1 and forked_from", async () => {
    const { project } = await twoVersions();
    const [v2] = expectBody(await server.client.get(`/v1/projects/${project.id}/versions`), 200).data;
    const fork = expectBody(
      await server.client.post(`/v1/projects/${project.id}/fork`, { version_id: v2!.id, visibility: "public" }),
      201,
    );
    expect(fork).toMatchObject({
      name: "Recipes (fork)",
      visibility: "public",
      status: "ready",
      latest_run_id: null,
      forked_from: { project_id: project.id, version_id: v2!.id },
    });
    expect(expectBody(await server.client.get(`/v1/projects/${fork.id}`), 200).forked_from).toEqual(fork.forked_from);
    const versions = expectBody(await server.client.get(`/v1/projects/${fork.id}/versions`), 200).data;
    expect(versions.map((version) => [version.number, version.source])).toEqual([[1, "fork"]]);
    expect(await projectFiles(fork.id)).toEqual(await treeOf(v2!.id));
    expect(expectBody(await server.client.get(`/v1/projects/${fork.id}/runs`), 200).data).toEqual([]);
    expect(expectBody(await server.client.get(`/v1/projects/${project.id}`), 200).forked_from).toBeNull();

    const empty = expectBody(await server.client.post("/v1/projects", { name: "New", prompt: "A timer" }), 201);
    expectApiError(await server.client.post(`/v1/projects/${empty.id}/fork`), 409, "conflict");
  });

  it("deploys a version by id, and serves that version's index.html", async () => {
    const { project } = await twoVersions();
    const [v2, v1] = expectBody(await server.client.get(`/v1/projects/${project.id}/versions`), 200).data;
    expectApiError(
      await server.client.post(`/v1/projects/${project.id}/deployments`, {
        version_id: v1!.id,
        run_id: v2!.agent_run_id!,
      }),
      400,
      "invalid_request",
      "version_id",
    );
    const queued = expectBody(
      await server.client.post(`/v1/projects/${project.id}/deployments`, { version_id: v1!.id }),
      202,
    );
    expect(queued).toMatchObject({ version_id: v1!.id, run_id: v1!.agent_run_id });
    await build(queued.id);
    const deployment = expectBody(await server.client.get(`/v1/projects/${project.id}/deployments/${queued.id}`), 200);
    expect(deployment.status).toBe("ready");
    const page = await openApp(server.appsUrl, deployment.url!);
    const index = (await versionTree(server.storage.db, v1!.id)).find((file) => file.path === "index.html")!;
    const expected = new TextDecoder().decode(await readBlobBytes(server.storage.db, index.sha256, index.sizeBytes));
    expect(page.text).toBe(expected);
    expect(page.text).not.toContain('id="about"');

    // With neither id, the latest version.
    const latest = expectBody(await server.client.post(`/v1/projects/${project.id}/deployments`, {}), 202);
    expect(latest.version_id).toBe(v2!.id);
  });

  it("gives a deployment the previous release queued (its run alone) that run's version when it builds", async () => {
    const { project, secondRun } = await twoVersions();
    const [row] = await server.storage.db
      .insert(deployments)
      .values({
        id: `dpl_${randomBase62(16)}`,
        projectId: project.id,
        workspaceId: (await server.storage.db.select().from(projects).where(eq(projects.id, project.id)))[0]!
          .workspaceId,
        environment: "live",
        runId: secondRun.id,
        target: "preview",
      })
      .returning();
    await build(row!.id);
    const built = expectBody(await server.client.get(`/v1/projects/${project.id}/deployments/${row!.id}`), 200);
    expect(built).toMatchObject({ status: "ready", run_id: secondRun.id, version_id: secondRun.version_id });
  });
});
