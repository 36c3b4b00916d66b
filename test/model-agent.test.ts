// The OpenAI-compatible agent inside the running server, against a local fake chat-completions
// endpoint, on the embedded database: its tool calls write files that are built and served, an
// attached image reaches the model, a cancel aborts the model request in flight, a failing model
// fails the run, tokens are charged.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createOpenAiAgent } from "../src/agents/openai.ts";
import { expectBody, expectStatus } from "./support/api-client.ts";
import { getApp, openApp } from "./support/apps-client.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { final, pollUntil } from "./support/poll.ts";
import { startFakeModel, writesApp, type FakeModel, type FakeRequest } from "./support/fake-model.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

/** The request's system prompt, which names the project. */
const systemOf = (request: FakeRequest): string => {
  const content = request.messages[0]?.content;
  return typeof content === "string" ? content : "";
};

onEmbeddedDatabase("the model-backed agent", (driver) => {
  let model: FakeModel;
  let server: TestServer;
  beforeAll(async () => {
    const app = writesApp({ title: "Weather board", text: "Sunny all week" });
    model = await startFakeModel((request) => {
      const system = systemOf(request);
      if (system.includes("Slowpoke")) return { delayMs: 30_000, text: "too late" };
      if (system.includes("Broken")) return { status: 503, body: "upstream overloaded" };
      return app(request);
    });
    const agent = createOpenAiAgent({
      baseUrl: model.url,
      apiKey: "sk-test-secret",
      model: "fake-1",
      retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
    });
    server = await startTestServer(driver, { workers: { agent } });
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
  });

  it("writes the files its tool calls ask for; they are bundled, deployed and served; tokens are charged", async () => {
    const created = await server.client.post("/v1/projects", {
      name: "Weather",
      prompt: "A weather board",
      visibility: "public",
    });
    expectStatus(created, 201);
    const project = await pollUntil(server.client, `/v1/projects/${created.body.id}`, final);
    expect(project.status).toBe("ready");
    const run = expectBody(
      await server.client.get(`/v1/projects/${created.body.id}/runs/${project.latest_run_id}`),
      200,
    );
    // Two answers of 120 tokens each: 240 tokens, one credit.
    expect(run).toMatchObject({
      status: "succeeded",
      credits_used: 1,
      summary: expect.stringContaining("Weather board"),
    });
    const paths = expectBody(await server.client.get(`/v1/projects/${created.body.id}/files`), 200).data.map(
      (file: { path: string }) => file.path,
    );
    expect(paths.sort()).toEqual(["index.html", "main.tsx", "style.css"]);
    expect(model.requests[0]!.headers.authorization).toBe("Bearer sk-test-secret");
    // One agent_run.progress per tool call, each with the paths written so far (events of one
    // millisecond list in no set order, so they are compared as a set, ordered by what they carry).
    const progress = expectBody(await server.client.get("/v1/events?type=agent_run.progress&limit=100"), 200)
      .data.flatMap((event) => (event.type === "agent_run.progress" ? [event.data.object] : []))
      .filter((object) => object.agent_run_id === project.latest_run_id)
      .sort((a, b) => a.paths.length - b.paths.length);
    expect(progress.map((object) => [object.message, object.paths])).toEqual([
      ["write_file index.html", ["index.html"]],
      ["write_file style.css", ["index.html", "style.css"]],
      ["write_file main.tsx", ["index.html", "main.tsx", "style.css"]],
    ]);

    const deployment = expectBody(await server.client.post(`/v1/projects/${created.body.id}/deployments`), 202);
    const ready = await pollUntil(server.client, `/v1/projects/${created.body.id}/deployments/${deployment.id}`, final);
    expect(ready.status).toBe("ready");
    const page = await openApp(server.appsUrl, ready.url!);
    expect(page.text).toContain("Weather board");
    const script = /<script[^>]*src="([^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    const bundle = await getApp(server.appsUrl, new URL(script!, ready.url!).toString());
    expect(bundle.status).toBe(200);
    expect(bundle.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(bundle.text).toContain("Sunny all week");
  });

  it("sends an attached image to the model as an image part", async () => {
    const created = expectBody(await server.client.post("/v1/projects", { name: "Logo", prompt: "A page" }), 201);
    await pollUntil(server.client, `/v1/projects/${created.id}`, final);
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const data = new FormData();
    data.append("path", "logo.png");
    data.append("file", new Blob([png], { type: "image/png" }), "logo.png");
    const logo = expectBody(
      await server.client.request("POST", `/v1/projects/${created.id}/files`, { raw: data }),
      201,
    );
    const asked = model.requests.length;
    const triggered = expectBody(
      await server.client.post(`/v1/projects/${created.id}/runs`, {
        prompt: "Put the logo in the header",
        attachments: [{ file_id: logo.id }],
      }),
      202,
    );
    const run = await pollUntil(server.client, `/v1/projects/${created.id}/runs/${triggered.id}`, final);
    expect(run.status).toBe("succeeded");
    expect(model.requests[asked]!.messages[1]!.content).toContainEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${Buffer.from(png).toString("base64")}` },
    });
  });

  it("cancels a running run at once, aborting the model request in flight", async () => {
    const created = await server.client.post("/v1/projects", { name: "Slowpoke", prompt: "Take your time" });
    expectStatus(created, 201);
    const runPath = `/v1/projects/${created.body.id}/runs/${created.body.latest_run_id}` as const;
    await pollUntil(server.client, runPath, (run) => run.status === "running");
    await pollUntil(server.client, runPath, () =>
      model.requests.some((request) => systemOf(request).includes("Slowpoke")),
    );
    const asked = Date.now();
    const canceled = await server.client.post(`${runPath}/cancel`);
    expectStatus(canceled, 200);
    expect(canceled.body.status).toBe("canceled");
    const slow = model.requests.find((request) => systemOf(request).includes("Slowpoke"))!;
    while (!slow.clientClosed && Date.now() - asked < 5_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(slow.clientClosed).toBe(true);
    expect(Date.now() - asked).toBeLessThan(5_000);
    // Still canceled once the worker has let go, with exactly one final event.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(expectBody(await server.client.get(runPath), 200).status).toBe("canceled");
    expect(expectBody(await server.client.get(`/v1/projects/${created.body.id}`), 200).status).toBe("canceled");
    const events = expectBody(await server.client.get("/v1/events?limit=100"), 200).data.filter(
      (event) =>
        "id" in event.data.object &&
        event.data.object.id === created.body.latest_run_id &&
        event.type !== "agent_run.queued",
    );
    expect(events.map((event) => event.type).sort()).toEqual(["agent_run.canceled", "agent_run.started"]);
  });

  it("fails the run with agent_error when the model keeps failing", async () => {
    const created = await server.client.post("/v1/projects", { name: "Broken", prompt: "Anything" });
    expectStatus(created, 201);
    const run = await pollUntil(
      server.client,
      `/v1/projects/${created.body.id}/runs/${created.body.latest_run_id}`,
      final,
    );
    expect(run.status).toBe("failed");
    expect(run.error!.code).toBe("agent_error");
    expect(run.error!.message).toContain("503");
    expect(run.error!.message).not.toContain("sk-test-secret");
    expect(expectBody(await server.client.get(`/v1/projects/${created.body.id}/files`), 200).data).toEqual([]);
  });
});
