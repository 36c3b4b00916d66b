// kill -9 while restores of a project's versions are under way, on a real server process, then a
// start on the same data: the project's files are always exactly one version's, never a mix. A
// restore is one transaction; this holds it to that across a process that dies at any moment.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { forEachDriver, type ProcessDatabase } from "../support/database.ts";
import { serverEnvironment } from "../support/environment.ts";
import { pbs, startServer } from "../support/process.ts";

const CYCLES = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

forEachDriver("crash: kill -9 during restores", (driver) => {
  let database: ProcessDatabase;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    database = await driver.forProcess();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await database?.dispose();
  });

  it(`leaves a project's files exactly one version's over ${CYCLES} kill -9 cycles`, { timeout: 240_000 }, async () => {
    const env = serverEnvironment(database.env);
    const start = async () => {
      const server = await startServer(env);
      children.push(server.child);
      return server;
    };
    let server = await start();
    await pbs(["workspaces", "create", "--slug", "restores", "--plan", "enterprise"], database.env);
    const key = (await pbs(["keys", "create", "--workspace", "restores", "--name", "restores"], database.env))
      .trimEnd()
      .split("\n")
      .at(-1)!;
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(server.url + path, {
        method,
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json().catch(() => undefined)) as never };
    };
    const waitForRun = async (projectId: string, runId: string) => {
      for (;;) {
        const run = (await call("GET", `/v1/projects/${projectId}/runs/${runId}`)).body as { status: string };
        if (run.status === "succeeded") return;
        if (run.status !== "queued" && run.status !== "running")
          throw new Error(`run ${runId}: ${JSON.stringify(run)}`);
        await sleep(100);
      }
    };
    /** The project's files as `path sha256` lines, in path order (the list is newest first). */
    const filesOf = async (projectId: string) => {
      const page = await call("GET", `/v1/projects/${projectId}/files?limit=100`);
      const data = (page.body as { data: { path: string; sha256: string }[] }).data;
      return data
        .map((file) => `${file.path} ${file.sha256}`)
        .sort()
        .join("\n");
    };

    // Two versions whose files differ: the first run's, and a second run's with a section added.
    const created = await call("POST", "/v1/projects", { name: "Restored", prompt: "A notes app" });
    const project = created.body as { id: string; latest_run_id: string };
    await waitForRun(project.id, project.latest_run_id);
    const first = await filesOf(project.id);
    const second = await call("POST", `/v1/projects/${project.id}/runs`, { prompt: "Add an about section" });
    await waitForRun(project.id, (second.body as { id: string }).id);
    const latest = await filesOf(project.id);
    const versions = (
      (await call("GET", `/v1/projects/${project.id}/versions`)).body as { data: { id: string; number: number }[] }
    ).data;
    const [v2, v1] = versions;
    expect([v2!.number, v1!.number, first === latest]).toEqual([2, 1, false]);

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      // Restores back and forth, several in flight, until the kill.
      let stop = false;
      const restoring = (async () => {
        for (let i = 0; !stop; i++) {
          await Promise.allSettled(
            [v1, v2].map((version) => call("POST", `/v1/projects/${project.id}/versions/${version!.id}/restore`)),
          );
          if (i > 50) break;
        }
      })();
      await sleep(150 + cycle * 120);
      server.child.kill("SIGKILL");
      stop = true;
      await restoring;
      const { child } = server;
      if (child.exitCode === null && child.signalCode === null)
        await new Promise((resolve) => child.once("exit", resolve));
      server = await start();
      expect([first, latest]).toContain(await filesOf(project.id));
    }
    // The numbers stayed without gaps however many restores the kills cut.
    const after = (
      (await call("GET", `/v1/projects/${project.id}/versions?limit=100`)).body as { data: { number: number }[] }
    ).data.map((version) => version.number);
    expect(after).toEqual(after.map((_, i) => after.length - i));
    server.child.kill("SIGTERM");
  });
});
