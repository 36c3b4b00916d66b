// Webhook deliveries through a crash: the server is killed with SIGKILL while a burst of events is
// being delivered to a slow receiver. Deliveries a dead process had claimed are attempted again (at
// the next start on the embedded default, which owns the database alone; when their claims' lease
// ends on PostgreSQL), so every event arrives, at least once, with its webhook-id.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiClient, expectBody } from "./support/api-client.ts";
import { forEachDriver, useProcessDatabase } from "./support/database.ts";
import { serverEnvironment } from "./support/environment.ts";
import { pbs, startServer } from "./support/process.ts";
import { startReceiver, type Receiver } from "./support/receiver.ts";

forEachDriver("webhook deliveries through a crash", (driver) => {
  const database = useProcessDatabase(driver);
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    // Slow answers keep deliveries in flight when the server dies.
    receiver.answer("/burst", (response) => void setTimeout(() => response.writeHead(200).end("ok"), 150));
  });
  afterAll(() => receiver?.close());

  it("delivers every event of a burst after kill -9 and a restart, none lost", async () => {
    const env = { ...serverEnvironment(database().env), WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" };
    let server = await startServer(env);
    await pbs(["workspaces", "create", "--slug", "burst", "--plan", "enterprise"], database().env);
    const secret = (await pbs(["keys", "create", "--workspace", "burst", "--name", "t"], database().env))
      .trimEnd()
      .split("\n")
      .at(-1)!;
    // A client of whichever server is up now.
    const api = () => createApiClient(server.url, secret);
    await api().post("/v1/webhooks", {
      url: `${receiver.url}/burst`,
      enabled_events: ["project.created", "project.updated"],
    });

    const project = expectBody(await api().post("/v1/projects", { name: "Burst", prompt: "x" }), 201);
    for (let i = 0; i < 15; i++) await api().patch(`/v1/projects/${project.id}`, { name: `Burst ${i}` });
    await receiver.waitFor("/burst", 2);
    server.child.kill("SIGKILL");
    await new Promise((resolve) => server.child.once("exit", resolve));
    const delivered = new Set(receiver.received.map((request) => request.headers["webhook-id"]));
    expect(delivered.size).toBeLessThan(16);

    server = await startServer(env);
    const events = expectBody(await api().get("/v1/events?limit=100"), 200).data.filter((event) =>
      event.type.startsWith("project."),
    );
    expect(events).toHaveLength(16);
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ids = new Set(receiver.received.map((request) => request.headers["webhook-id"]));
      if (events.every((event) => ids.has(event.id))) break;
      if (Date.now() > deadline)
        throw new Error(`only ${ids.size} of ${events.length} events were delivered after the restart`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 150_000);
});
