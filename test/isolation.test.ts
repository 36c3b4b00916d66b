// Workspace and live/test isolation over HTTP, on the embedded database. A resource of another
// workspace, or of the other environment of the same workspace, answers exactly what a resource
// that does not exist answers (status, code, param, message, headers): the API never reveals that
// it exists, reads it or changes it. Lists show only the caller's partition.
import { eq } from "drizzle-orm";
import type { Operation } from "openapi-backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId, type IdPrefix } from "../src/storage/ids.ts";
import { agentRuns } from "../src/storage/schema.ts";
import {
  expectBody,
  expectStatus,
  type AnyResponse,
  type ApiClient,
  type ApiResponse,
  type Schemas,
} from "./support/api-client.ts";
import { exampleBody, operations } from "./support/contract.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

/** The ids of one partition's resources, by path parameter name. */
type Ids = Record<
  | "project_id"
  | "run_id"
  | "version_id"
  | "deployment_id"
  | "file_id"
  | "webhook_endpoint_id"
  | "delivery_id"
  | "event_id",
  string
>;

const prefixes: Record<keyof Ids, IdPrefix> = {
  project_id: "prj",
  run_id: "run",
  version_id: "ver",
  deployment_id: "dpl",
  file_id: "file",
  webhook_endpoint_id: "we",
  delivery_id: "dlv",
  event_id: "evt",
};

// Every operation that addresses one resource (or a resource's sub-list): those with an id in
// their path, taken from the contract so that an operation added to it is probed from then on.
const probes = (await operations()).filter((operation) => operation.path.includes("{"));

const fill = (template: string, ids: Partial<Ids>) =>
  template.replace(/\{(\w+)\}/g, (_, name: keyof Ids) => ids[name] ?? `{${name}}`);

function uploadForm(): FormData {
  const form = new FormData();
  form.append("path", "assets/notes.txt");
  form.append("file", new Blob(["notes"], { type: "text/plain" }), "notes.txt");
  return form;
}

function send(client: ApiClient, probe: Operation, ids: Partial<Ids>): Promise<AnyResponse> {
  return client.request(probe.method.toUpperCase(), fill(probe.path, ids), exampleBody(probe));
}

/** What a client can observe of a 404, with the ids it sent put back as placeholders. */
function observable(response: ApiResponse<404, Schemas["Error"]>, ids: Partial<Ids>) {
  let text = JSON.stringify({ ...response.body, error: { ...response.body.error, request_id: "<request id>" } });
  for (const [name, id] of Object.entries(ids)) text = text.replaceAll(id, `{${name}}`);
  const varying = new Set([
    "x-request-id",
    "date",
    "x-ratelimit-remaining",
    "x-ratelimit-used",
    "x-ratelimit-reset",
    "ratelimit",
  ]);
  const headers = [...response.headers.entries()].filter(([name]) => !varying.has(name));
  return { status: response.status, body: JSON.parse(text), headers: Object.fromEntries(headers) };
}

it("probes every kind of id the partitions are populated with, and only those", () => {
  const named = new Set(probes.flatMap((probe) => [...probe.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1])));
  expect([...named].sort()).toEqual(Object.keys(prefixes).sort());
});

onEmbeddedDatabase("isolation", (driver) => {
  let server: TestServer;
  let aLive: ApiClient;
  let aTest: ApiClient;
  let bLive: ApiClient;
  /** Workspace A's live resources. */
  let ids: Ids;

  /** A project with a succeeded run, a file, a version, a deployment, a webhook endpoint with a delivery, and its events. */
  async function populate(client: ApiClient, name: string): Promise<Ids> {
    const project = await client.post("/v1/projects", { name, prompt: `${name} prompt` });
    expectStatus(project, 201);
    const runId = project.body.latest_run_id!;
    // The worker would finish the run; the API has no operation for it.
    await server.storage.db
      .update(agentRuns)
      .set({ status: "succeeded", finishedAt: new Date() })
      .where(eq(agentRuns.id, runId));
    const file = await client.request("POST", `/v1/projects/${project.body.id}/files`, { raw: uploadForm() });
    expectStatus(file, 201);
    const version = await client.post(`/v1/projects/${project.body.id}/versions`, { message: name });
    expectStatus(version, 201);
    const deployment = await client.post(`/v1/projects/${project.body.id}/deployments`, { target: "production" });
    expectStatus(deployment, 202);
    const webhook = await client.post("/v1/webhooks", { url: "https://hooks.example.com/pbs", enabled_events: ["*"] });
    expectStatus(webhook, 201);
    const delivery = await client.post(`/v1/webhooks/${webhook.body.id}/test`);
    expectStatus(delivery, 202);
    const events = await client.get("/v1/events?limit=1");
    expectStatus(events, 200);
    expect(events.body.data).toHaveLength(1);
    return {
      project_id: project.body.id,
      run_id: runId,
      version_id: version.body.id,
      deployment_id: deployment.body.id,
      file_id: file.body.id,
      webhook_endpoint_id: webhook.body.id,
      delivery_id: delivery.body.id,
      event_id: events.body.data[0]!.id,
    };
  }

  beforeAll(async () => {
    server = await startTestServer(driver);
    aLive = server.as(await server.createKey({ workspace: "alpha", environment: "live" }));
    aTest = server.as(await server.createKey({ workspace: "alpha", environment: "test" }));
    bLive = server.as(await server.createKey({ workspace: "beta", environment: "live" }));
    ids = await populate(aLive, "Alpha live");
  });
  afterAll(() => server?.stop());

  /** Fresh ids of the same shapes that name nothing anywhere. */
  const nowhere = (): Ids =>
    Object.fromEntries(Object.entries(prefixes).map(([name, prefix]) => [name, newId(prefix)])) as Ids;

  for (const [who, client] of [
    ["another workspace's key", () => bLive],
    ["the same workspace's test key", () => aTest],
  ] as const) {
    describe(`${who} on workspace A's live resources`, () => {
      for (const probe of probes) {
        it(`${probe.method.toUpperCase()} ${probe.path} answers as for an id that does not exist`, async () => {
          const foreign = await send(client(), probe, ids);
          expectStatus(foreign, 404);
          expect(foreign.body.error.code).toBe("not_found");
          expect(foreign.body.error.request_id).toBe(foreign.headers.get("x-request-id"));
          const fake = nowhere();
          const missing = await send(client(), probe, fake);
          expectStatus(missing, 404);
          expect(observable(foreign, ids)).toEqual(observable(missing, fake));
        });
      }
    });
  }

  it("another workspace's ids under the caller's own project answer 404 too", async () => {
    const own = await bLive.post("/v1/projects", { name: "Beta own", prompt: "b" });
    expectStatus(own, 201);
    for (const path of [
      `/v1/projects/${own.body.id}/runs/${ids.run_id}`,
      `/v1/projects/${own.body.id}/deployments/${ids.deployment_id}`,
      `/v1/projects/${own.body.id}/files/${ids.file_id}`,
      `/v1/projects/${own.body.id}/files/${ids.file_id}/content`,
    ]) {
      const response = await bLive.get(path);
      expectStatus(response, 404, path);
    }
    expect((await bLive.post(`/v1/projects/${own.body.id}/deployments`, { run_id: ids.run_id })).status).toBe(404);
  });

  it("workspace A's resources are untouched by everything the others tried", async () => {
    const project = await aLive.get(`/v1/projects/${ids.project_id}`);
    expectStatus(project, 200);
    expect(project.body.name).toBe("Alpha live");
    expect(expectBody(await aLive.get(`/v1/projects/${ids.project_id}/runs/${ids.run_id}`), 200).status).toBe(
      "succeeded",
    );
    const runs = await aLive.get(`/v1/projects/${ids.project_id}/runs`);
    expectStatus(runs, 200);
    expect(runs.body.data.map((run: { id: string }) => run.id)).toEqual([ids.run_id]);
    const deployments = await aLive.get(`/v1/projects/${ids.project_id}/deployments`);
    expectStatus(deployments, 200);
    expect(deployments.body.data.map((deployment: { id: string }) => deployment.id)).toEqual([ids.deployment_id]);
    const files = await aLive.get(`/v1/projects/${ids.project_id}/files`);
    expectStatus(files, 200);
    expect(files.body.data.map((file: { id: string }) => file.id)).toEqual([ids.file_id]);
    expect(
      new TextDecoder().decode((await aLive.get(`/v1/projects/${ids.project_id}/files/${ids.file_id}/content`)).bytes),
    ).toBe("notes");
    expect(expectBody(await aLive.get(`/v1/webhooks/${ids.webhook_endpoint_id}`), 200).status).toBe("enabled");
    const deliveries = await aLive.get(`/v1/webhooks/${ids.webhook_endpoint_id}/deliveries?limit=100`);
    expectStatus(deliveries, 200);
    expect(deliveries.body.data.filter((delivery: { id: string }) => delivery.id === ids.delivery_id)).toHaveLength(1);
  });

  describe("the live and the test key of one workspace", () => {
    let testIds: Ids;
    beforeAll(async () => {
      testIds = await populate(aTest, "Alpha test");
    });

    it("see disjoint lists", async () => {
      for (const path of ["/v1/projects", "/v1/webhooks", "/v1/events"] as const) {
        const live = expectBody(await aLive.get(`${path}?limit=100`), 200).data.map((item: { id: string }) => item.id);
        const test = expectBody(await aTest.get(`${path}?limit=100`), 200).data.map((item: { id: string }) => item.id);
        expect(live.length, path).toBeGreaterThan(0);
        expect(test.length, path).toBeGreaterThan(0);
        expect(
          live.filter((id: string) => test.includes(id)),
          path,
        ).toEqual([]);
      }
      const liveProjects = expectBody(await aLive.get("/v1/projects?limit=100"), 200).data.map(
        (p: { id: string }) => p.id,
      );
      expect(liveProjects).toContain(ids.project_id);
      expect(liveProjects).not.toContain(testIds.project_id);
      expect(expectBody(await aTest.get("/v1/projects?limit=100"), 200).data.map((p: { id: string }) => p.id)).toEqual([
        testIds.project_id,
      ]);
    });

    it("cannot get each other's resources", async () => {
      for (const probe of probes.filter((p) => p.method === "get")) {
        expect((await send(aTest, probe, ids)).status, `test key: ${probe.path}`).toBe(404);
        expect((await send(aLive, probe, testIds)).status, `live key: ${probe.path}`).toBe(404);
        expect((await send(aLive, probe, ids)).status, `live key, own: ${probe.path}`).toBe(200);
        expect((await send(aTest, probe, testIds)).status, `test key, own: ${probe.path}`).toBe(200);
      }
    });

    it("events say which workspace and mode they belong to", async () => {
      for (const [client, livemode] of [
        [aLive, true],
        [aTest, false],
      ] as const) {
        const events = expectBody(await client.get("/v1/events?limit=100"), 200).data;
        const workspace = expectBody(await client.get("/v1/key"), 200).workspace.id;
        for (const event of events) expect(event).toMatchObject({ workspace_id: workspace, livemode });
      }
    });
  });

  it("no list of any partition shows another partition's items", async () => {
    await populate(bLive, "Beta live");
    const partitions = [aLive, aTest, bLive];
    const lists = (ids: Ids) =>
      [
        "/v1/projects",
        "/v1/webhooks",
        "/v1/events",
        "/v1/billing/invoices",
        `/v1/projects/${ids.project_id}/runs`,
        `/v1/projects/${ids.project_id}/deployments`,
        `/v1/projects/${ids.project_id}/files`,
        `/v1/webhooks/${ids.webhook_endpoint_id}/deliveries`,
      ] as const;
    const seen = new Map<string, number>(); // item id → partition index
    for (const [index, client] of partitions.entries()) {
      const own = expectBody(await client.get("/v1/projects?limit=1"), 200).data[0]!.id;
      const webhook = expectBody(await client.get("/v1/webhooks?limit=1"), 200).data[0]!.id;
      for (const path of lists({ ...ids, project_id: own, webhook_endpoint_id: webhook })) {
        const response = await client.get(`${path}?limit=100`);
        expectStatus(response, 200, path);
        for (const item of response.body.data) {
          expect(seen.get(item.id) ?? index, `${item.id} listed in partitions ${seen.get(item.id)} and ${index}`).toBe(
            index,
          );
          seen.set(item.id, index);
        }
      }
    }
    expect(new Set(seen.values())).toEqual(new Set([0, 1, 2]));
  });
});
