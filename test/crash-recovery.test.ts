// A server killed with SIGKILL while an agent run is `running` (its model is slow). On the embedded
// default, started again on the same data directory, it retries the job the dead process held; on
// PostgreSQL another replica, already running, retries it once its heartbeat lapses. Either way the
// run finishes once, with one final status and one final event. Webhook deliveries in flight when
// the process dies are attempted again the same way (released at start, or when their lease ends).
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { forEachDriver, type ProcessDatabase } from "./support/database.ts";
import { startFakeModel, writesApp, type FakeModel } from "./support/fake-model.ts";
import { repoRoot, run, startServer } from "./support/process.ts";
import { startReceiver, type Receiver } from "./support/receiver.ts";

/** Runs `pbs` and answers what it printed; fails unless it exits 0. */
async function pbs(args: string[], env: Record<string, string>): Promise<string> {
  const { code, stdout } = await run(join(repoRoot, "src/cli/pbs.ts"), args, env);
  if (code !== 0) throw new Error(`pbs ${args.join(" ")} exited with ${code}`);
  return stdout;
}

/** A fake model whose first call hangs (long enough to kill the server under it); later calls answer at once. */
async function hangingOnceModel(): Promise<FakeModel> {
  let calls = 0;
  const app = writesApp({ title: "Survivor" });
  return startFakeModel((request) => {
    calls += 1;
    return calls === 1 ? { delayMs: 120_000, text: "never sent" } : app(request);
  });
}

forEachDriver("a run whose server was killed mid-run", (driver) => {
  let database: ProcessDatabase;
  let model: FakeModel;
  const servers: ChildProcess[] = [];

  beforeAll(async () => {
    database = await driver.forProcess();
    model = await hangingOnceModel();
  });
  afterAll(async () => {
    for (const child of servers) if (child.exitCode === null) child.kill("SIGKILL");
    await model?.close();
    await database?.dispose();
  });

  it(driver.name === "pglite" ? "finishes once after the server is started again" : "is finished once by another replica", async () => {
    const env = {
      ...database.env,
      PORT: "0",
      APPS_PORT: "0",
      HOST: "127.0.0.1",
      REDIS_URL: "",
      LOG_LEVEL: "info",
      AGENT_BASE_URL: model.url,
      AGENT_MODEL: "fake-1",
    };
    const start = async () => {
      const server = await startServer(env);
      servers.push(server.child);
      return server;
    };
    let server = await start();
    // A plan whose rate limit the polling below stays well within.
    await pbs(["workspaces", "create", "--slug", "crash", "--plan", "enterprise"], database.env);
    const secret = (await pbs(["keys", "create", "--workspace", "crash", "--name", "t"], database.env)).trimEnd().split("\n").at(-1)!;
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, { ...init, headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" } }).then(
        (response) => response.json() as Promise<any>,
      );

    const project = await api("/v1/projects", { method: "POST", body: JSON.stringify({ name: "Survivor", prompt: "Outlive a crash" }) });
    const runPath = `/v1/projects/${project.id}/runs/${project.latest_run_id}`;
    const deadline = Date.now() + 20_000;
    while ((await api(runPath)).status !== "running" || model.requests.length === 0) {
      if (Date.now() > deadline) throw new Error("the run never started");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // On PostgreSQL the survivor is a replica already running when the first one dies.
    const survivor = driver.name === "postgres" ? await start() : undefined;
    const killed = server.child;
    killed.kill("SIGKILL");
    await new Promise((resolve) => killed.once("exit", resolve));
    const killedAt = Date.now();
    server = survivor ?? (await start());

    let run = await api(runPath);
    while (run.status === "running" || run.status === "queued") {
      if (Date.now() - killedAt > 60_000) throw new Error(`the run did not finish within 60 s: ${JSON.stringify(run)}`);
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

forEachDriver("webhook deliveries through a crash", (driver) => {
  let database: ProcessDatabase;
  let receiver: Receiver;
  const servers: ChildProcess[] = [];

  beforeAll(async () => {
    database = await driver.forProcess();
    receiver = await startReceiver();
    // Slow answers keep deliveries in flight when the server dies.
    receiver.answer("/burst", (response) => void setTimeout(() => response.writeHead(200).end("ok"), 150));
  });
  afterAll(async () => {
    for (const child of servers) if (child.exitCode === null) child.kill("SIGKILL");
    await receiver?.close();
    await database?.dispose();
  });

  it("delivers every event of a burst after kill -9 and a restart, none lost", async () => {
    const env = { ...database.env, PORT: "0", APPS_PORT: "0", HOST: "127.0.0.1", REDIS_URL: "", LOG_LEVEL: "info", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" };
    let server = await startServer(env);
    servers.push(server.child);
    await pbs(["workspaces", "create", "--slug", "burst", "--plan", "enterprise"], database.env);
    const secret = (await pbs(["keys", "create", "--workspace", "burst", "--name", "t"], database.env)).trimEnd().split("\n").at(-1)!;
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, { ...init, headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" } }).then(
        (response) => response.json() as Promise<any>,
      );
    await api("/v1/webhooks", { method: "POST", body: JSON.stringify({ url: `${receiver.url}/burst`, enabled_events: ["project.created", "project.updated"] }) });

    const project = await api("/v1/projects", { method: "POST", body: JSON.stringify({ name: "Burst", prompt: "x" }) });
    for (let i = 0; i < 15; i++) await api(`/v1/projects/${project.id}`, { method: "PATCH", body: JSON.stringify({ name: `Burst ${i}` }) });
    await receiver.waitFor("/burst", 2);
    server.child.kill("SIGKILL");
    await new Promise((resolve) => server.child.once("exit", resolve));
    const delivered = new Set(receiver.received.map((request) => request.headers["webhook-id"]));
    expect(delivered.size).toBeLessThan(16);

    server = await startServer(env);
    servers.push(server.child);
    const events = (await api("/v1/events?limit=100")).data.filter((event: { type: string }) => event.type.startsWith("project."));
    expect(events).toHaveLength(16);
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ids = new Set(receiver.received.map((request) => request.headers["webhook-id"]));
      if (events.every((event: { id: string }) => ids.has(event.id))) break;
      if (Date.now() > deadline) throw new Error(`only ${ids.size} of ${events.length} events were delivered after the restart`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 150_000);
});
