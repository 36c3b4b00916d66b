// A server killed with SIGKILL while an agent run is `running` (its model is slow). On the embedded
// default, started again on the same data directory, it retries the job the dead process held; on
// PostgreSQL another replica, already running, retries it once its heartbeat lapses. Either way the
// run finishes once, with one final status and one final event.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiClient, expectBody } from "./support/api-client.ts";
import { forEachDriver, useProcessDatabase } from "./support/database.ts";
import { serverEnvironment } from "./support/environment.ts";
import { startFakeModel, writesApp, type FakeModel } from "./support/fake-model.ts";
import { pbs, startServer } from "./support/process.ts";

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
  const database = useProcessDatabase(driver);
  let model: FakeModel;
  beforeAll(async () => {
    model = await hangingOnceModel();
  });
  afterAll(() => model?.close());

  it(
    driver.name === "pglite"
      ? "finishes once after the server is started again"
      : "is finished once by another replica",
    async () => {
      const env = {
        ...serverEnvironment(database().env),
        AGENT_BASE_URL: model.url,
        AGENT_MODEL: "fake-1",
      };
      const start = () => startServer(env);
      let server = await start();
      // A plan whose rate limit the polling below stays well within.
      await pbs(["workspaces", "create", "--slug", "crash", "--plan", "enterprise"], database().env);
      const secret = (await pbs(["keys", "create", "--workspace", "crash", "--name", "t"], database().env))
        .trimEnd()
        .split("\n")
        .at(-1)!;
      // A client of whichever server is up now.
      const api = () => createApiClient(server.url, secret);

      const project = expectBody(
        await api().post("/v1/projects", { name: "Survivor", prompt: "Outlive a crash" }),
        201,
      );
      const runPath = `/v1/projects/${project.id}/runs/${project.latest_run_id}` as const;
      const deadline = Date.now() + 20_000;
      while (expectBody(await api().get(runPath), 200).status !== "running" || model.requests.length === 0) {
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

      let run = expectBody(await api().get(runPath), 200);
      while (run.status === "running" || run.status === "queued") {
        if (Date.now() - killedAt > 60_000)
          throw new Error(`the run did not finish within 60 s: ${JSON.stringify(run)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
        run = expectBody(await api().get(runPath), 200);
      }
      expect(run).toMatchObject({ status: "succeeded", error: null });
      const events = expectBody(await api().get("/v1/events?limit=100"), 200).data.filter(
        (event) => "id" in event.data.object && event.data.object.id === project.latest_run_id,
      );
      expect(events.map((event) => event.type).sort()).toEqual([
        "agent_run.queued",
        "agent_run.started",
        "agent_run.succeeded",
      ]);
      const files = expectBody(await api().get(`/v1/projects/${project.id}/files`), 200).data.map((file) => file.path);
      expect(files.sort()).toEqual(["index.html", "main.tsx", "style.css"]);
    },
    120_000,
  );
});
