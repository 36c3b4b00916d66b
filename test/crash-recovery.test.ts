// A server killed with SIGKILL while an agent run is `running` (its model is slow): started again on
// the same data directory, it picks the run up and finishes it once, with one final status and one
// final event. This is the embedded default's guarantee (the next start retries the job whose
// heartbeat stopped); on PostgreSQL another replica does the same through the same mechanism.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModel, writesApp, type FakeModel } from "./support/fake-model.ts";

const repoRoot = join(import.meta.dirname, "..");

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["src/main.ts"], { cwd: repoRoot, env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        const entry = JSON.parse(line) as { msg: string; url?: string };
        if (entry.msg === "listening") resolve({ child, url: entry.url! });
      }
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
}

function pbs(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(repoRoot, "src/cli/pbs.ts"), args, { cwd: repoRoot, env: { ...process.env, ...env } });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`pbs exited with ${code}`))));
  });
}

describe("a run whose server was killed mid-run (embedded default)", () => {
  let dataDir: string;
  let model: FakeModel;
  let server: { child: ChildProcess; url: string } | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "pbs-crash-"));
    // The first model call of the run hangs long enough to kill the server under it; the retry's answers come at once.
    let calls = 0;
    const app = writesApp({ title: "Survivor" });
    model = await startFakeModel((request) => {
      calls += 1;
      return calls === 1 ? { delayMs: 120_000, text: "never sent" } : app(request);
    });
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
    await model?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("finishes the run once after a restart", async () => {
    const env = {
      DATA_DIR: dataDir,
      PORT: "0",
      APPS_PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: "",
      REDIS_URL: "",
      LOG_LEVEL: "warn",
      AGENT_BASE_URL: model.url,
      AGENT_MODEL: "fake-1",
    };
    server = await startServer({ ...env, LOG_LEVEL: "info" });
    // A plan whose rate limit the polling below stays well within.
    await pbs(["workspaces", "create", "--slug", "crash", "--plan", "enterprise"], { DATA_DIR: dataDir, DATABASE_URL: "" });
    const secret = (await pbs(["keys", "create", "--workspace", "crash", "--name", "t"], { DATA_DIR: dataDir, DATABASE_URL: "" })).trimEnd().split("\n").at(-1)!;
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${server!.url}${path}`, { ...init, headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" } }).then(
        (response) => response.json() as Promise<any>,
      );

    const project = await api("/v1/projects", { method: "POST", body: JSON.stringify({ name: "Survivor", prompt: "Outlive a crash" }) });
    const runPath = `/v1/projects/${project.id}/runs/${project.latest_run_id}`;
    const deadline = Date.now() + 20_000;
    while ((await api(runPath)).status !== "running" || model.requests.length === 0) {
      if (Date.now() > deadline) throw new Error("the run never started");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    server.child.kill("SIGKILL");
    await new Promise((resolve) => server!.child.once("exit", resolve));
    server = await startServer({ ...env, LOG_LEVEL: "info" });

    const finishedBy = Date.now() + 60_000;
    let run = await api(runPath);
    while (run.status === "running" || run.status === "queued") {
      if (Date.now() > finishedBy) throw new Error(`the run did not finish after the restart: ${JSON.stringify(run)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      run = await api(runPath);
    }
    expect(run).toMatchObject({ status: "succeeded", error: null });
    const events = (await api("/v1/events?limit=100")).data.filter(
      (event: { type: string; data: { object: { id: string } } }) => event.data.object.id === project.latest_run_id,
    );
    expect(events.map((event: { type: string }) => event.type).sort()).toEqual(["agent_run.queued", "agent_run.started", "agent_run.succeeded"]);
    const files = (await api(`/v1/projects/${project.id}/files`)).data.map((file: { path: string }) => file.path);
    expect(files.sort()).toEqual(["index.html", "main.tsx", "style.css"]);
  }, 120_000);
});
