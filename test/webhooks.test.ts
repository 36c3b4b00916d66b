// Webhook endpoints and deliveries over HTTP, end to end, on the embedded database.
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "../src/storage/schema.ts";
import {
  expectApiError,
  expectBody,
  expectStatus,
  invalidBody,
  type RequestBody,
  type ResponseTo,
} from "./support/api-client.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { suiteServer } from "./support/server.ts";

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

onEmbeddedDatabase("webhooks", (driver) => {
  const server = suiteServer(driver);

  const create = (body: RequestBody<"POST", "/v1/webhooks">) => server.client.post("/v1/webhooks", body);

  it("creates an endpoint with its secret, shown in the create answer only", async () => {
    const created = await create({
      url: "https://example.com/hooks",
      enabled_events: ["project.created", "agent_run.failed", "project.created"],
    });
    expectStatus(created, 201);
    expect(created.headers.get("location")).toBe(`/v1/webhooks/${created.body.id}`);
    expect(created.body).toMatchObject({
      url: "https://example.com/hooks",
      description: null,
      enabled_events: ["project.created", "agent_run.failed"],
      status: "enabled",
    });
    expect(created.body.id).toMatch(/^we_/);
    expect(created.body.secret).toMatch(SECRET);
    expect(Buffer.from(created.body.secret.slice("whsec_".length), "base64")).toHaveLength(32);

    const { secret, ...endpoint } = created.body;
    const got = await server.client.get(`/v1/webhooks/${endpoint.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(endpoint);
    expect(got.body).not.toHaveProperty("secret");
    const list = await server.client.get("/v1/webhooks?limit=100");
    expectStatus(list, 200);
    const listed = list.body.data.find((e: { id: string }) => e.id === endpoint.id);
    expect(listed).toEqual(endpoint);
    expect(JSON.stringify(list.body)).not.toContain(secret);

    const other = await create({ url: "https://example.com/other", enabled_events: ["*"] });
    expectStatus(other, 201);
    expect(other.body.secret).not.toBe(secret);
  });

  it("refuses a url that is not https, and creates nothing", async () => {
    const before = await server.client.get("/v1/webhooks?limit=100");
    expectStatus(before, 200);
    for (const url of ["http://example.com/hooks", "ftp://example.com", "example.com/hooks"]) {
      const refused = await create({ url, enabled_events: ["*"] });
      expectStatus(refused, 400, url);
      expect(refused.body.error).toMatchObject({ code: "invalid_request", param: "url" });
    }
    // The refusal says how to receive deliveries locally.
    const local = await create({ url: "http://localhost:3000/hooks", enabled_events: ["*"] });
    expectStatus(local, 400);
    expect(local.body.error.message).toContain("pbs listen --forward-to <url>");
    expect(local.body.error.message).toContain("WEBHOOK_ALLOW_PRIVATE_NETWORKS=true");
    const empty = await create({ url: "https://example.com/x", enabled_events: [] });
    expectStatus(empty, 400);
    expect(empty.body.error.param).toBe("enabled_events");
    const unknownType = await create(
      invalidBody({ url: "https://example.com/x", enabled_events: ["project.exploded"] }),
    );
    expect(unknownType.status).toBe(400);
    const after = await server.client.get("/v1/webhooks?limit=100");
    expectStatus(after, 200);
    expect(after.body.data.length).toBe(before.body.data.length);
  });

  it("refuses IPv6 addresses that carry a loopback or link-local IPv4 address, and accepts one that carries a public one", async () => {
    for (const url of [
      "https://[2002:7f00:1::1]/", // 6to4 of 127.0.0.1
      "https://[::127.0.0.1]/", // IPv4-compatible
      "https://[2002:a9fe:a9fe::1]/", // 6to4 of 169.254.169.254, the cloud metadata address
    ]) {
      const refused = await create({ url, enabled_events: ["*"] });
      expectStatus(refused, 400, url);
      expect(refused.body.error, url).toMatchObject({ code: "invalid_request", param: "url" });
    }
    expect((await create({ url: "https://[2002:808:808::1]/hooks", enabled_events: ["*"] })).status).toBe(201); // 6to4 of 8.8.8.8
  });

  it("lists endpoints newest first, a page at a time", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(expectBody(await create({ url: `https://example.com/page/${i}`, enabled_events: ["*"] }), 201).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ResponseTo<"GET", "/v1/webhooks"> = await server.client.get(
        `/v1/webhooks?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expectStatus(page, 200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((e) => e.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    // The five just created come first, newest first.
    expect(seen.slice(0, 5)).toEqual([...ids].reverse());
  });

  it("updates only the fields sent; a null description clears it", async () => {
    const endpoint = expectBody(
      await create({
        url: "https://example.com/a",
        description: "Orders",
        enabled_events: ["*"],
      }),
      201,
    );
    expect(endpoint.description).toBe("Orders");

    const status = await server.client.patch(`/v1/webhooks/${endpoint.id}`, { status: "disabled" });
    expectStatus(status, 200);
    expect(status.body).toMatchObject({
      url: "https://example.com/a",
      description: "Orders",
      enabled_events: ["*"],
      status: "disabled",
    });
    expect(status.body).not.toHaveProperty("secret");
    expect(Date.parse(status.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(endpoint.updated_at));
    expect(status.body.created_at).toBe(endpoint.created_at);

    const changed = await server.client.patch(`/v1/webhooks/${endpoint.id}`, {
      url: "https://example.com/b",
      description: null,
      enabled_events: ["file.uploaded", "file.uploaded", "file.deleted"],
    });
    expect(changed.body).toMatchObject({
      url: "https://example.com/b",
      description: null,
      enabled_events: ["file.uploaded", "file.deleted"],
      status: "disabled",
    });
    expect((await server.client.get(`/v1/webhooks/${endpoint.id}`)).body).toEqual(changed.body);

    const insecure = await server.client.patch(`/v1/webhooks/${endpoint.id}`, { url: "http://example.com/b" });
    expectStatus(insecure, 400);
    expect(insecure.body.error).toMatchObject({ code: "invalid_request", param: "url" });
    expect((await server.client.patch(`/v1/webhooks/${endpoint.id}`, invalidBody({ status: "paused" }))).status).toBe(
      400,
    );
    expect(expectBody(await server.client.get(`/v1/webhooks/${endpoint.id}`), 200).url).toBe("https://example.com/b");
  });

  it("sends a test event to this endpoint only, whatever its events and status", async () => {
    // Subscribed to something else and disabled: the test event still goes to it.
    const endpoint = expectBody(
      await create({ url: "https://example.com/test", enabled_events: ["deployment.ready"] }),
      201,
    );
    await server.client.patch(`/v1/webhooks/${endpoint.id}`, { status: "disabled" });
    // Subscribed to everything: the test event is not for it.
    const bystander = expectBody(await create({ url: "https://example.com/all", enabled_events: ["*"] }), 201);

    const sent = await server.client.post(`/v1/webhooks/${endpoint.id}/test`);
    expectStatus(sent, 202);
    expect(sent.headers.get("location")).toBe(`/v1/webhooks/${endpoint.id}/deliveries/${sent.body.id}`);
    // Location names the delivery itself.
    expect((await server.client.get(sent.headers.get("location")!)).body).toEqual({ ...sent.body, attempt_log: [] });
    expect(sent.body).toMatchObject({
      webhook_endpoint_id: endpoint.id,
      event_type: "webhook.test",
      status: "pending",
      attempts: 0,
      response_status: null,
      last_attempt_at: null,
    });
    expect(sent.body.id).toMatch(/^dlv_[0-9A-Za-z]{24}$/);
    expect(sent.body.next_attempt_at).not.toBeNull();

    const event = await server.client.get(`/v1/events/${sent.body.event_id}`);
    expectStatus(event, 200);
    expect(event.body).toMatchObject({ id: sent.body.event_id, type: "webhook.test", livemode: true });
    expect(event.body.data.object).toEqual({ message: expect.any(String), webhook_endpoint_id: endpoint.id });

    const deliveries = await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries`);
    expectStatus(deliveries, 200);
    expect(deliveries.body.data).toEqual([sent.body]);
    const toBystander = await server.client.get(`/v1/webhooks/${bystander.id}/deliveries?limit=100`);
    expectStatus(toBystander, 200);
    expect(toBystander.body.data.map((d: { event_id: string }) => d.event_id)).not.toContain(sent.body.event_id);

    expect((await server.client.post("/v1/webhooks/we_doesNotExist0000/test")).status).toBe(404);
  });

  it("queues the events an endpoint subscribes to, and lists its deliveries newest first with filters", async () => {
    const endpoint = expectBody(
      await create({
        url: "https://example.com/projects",
        enabled_events: ["project.created"],
      }),
      201,
    );
    const projects = [];
    for (let i = 0; i < 3; i++)
      projects.push((await server.client.post("/v1/projects", { name: `P${i}`, prompt: "x" })).body);
    const test = expectBody(await server.client.post(`/v1/webhooks/${endpoint.id}/test`), 202);

    const all = await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries?limit=100`);
    expectStatus(all, 200);
    expect(all.body.data.map((d: { event_type: string }) => d.event_type)).toEqual([
      "webhook.test",
      "project.created",
      "project.created",
      "project.created",
    ]);
    expect(all.body.data[0]).toEqual(test);

    // Paging, with a cursor bound to this endpoint's list.
    const first = await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries?limit=3`);
    expectStatus(first, 200);
    expect(first.body.data).toEqual(all.body.data.slice(0, 3));
    const cursor = encodeURIComponent(first.body.next_cursor!);
    const second = await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries?limit=3&cursor=${cursor}`);
    expectStatus(second, 200);
    expect(second.body.data).toEqual(all.body.data.slice(3));
    expect(second.body.next_cursor).toBeNull();
    const other = expectBody(await create({ url: "https://example.com/other-list", enabled_events: ["*"] }), 201);
    const foreign = await server.client.get(`/v1/webhooks/${other.id}/deliveries?limit=3&cursor=${cursor}`);
    expectStatus(foreign, 400);
    expect(foreign.body.error.param).toBe("cursor");

    // Filter by status.
    await server.storage.db
      .update(webhookDeliveries)
      .set({ status: "succeeded", attempts: 1, responseStatus: 204, lastAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, test.id));
    const succeeded = await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries?status=succeeded`);
    expectStatus(succeeded, 200);
    expect(succeeded.body.data).toHaveLength(1);
    expect(succeeded.body.data[0]).toMatchObject({
      id: test.id,
      status: "succeeded",
      attempts: 1,
      response_status: 204,
      next_attempt_at: null,
    });
    expect(succeeded.body.data[0]!.last_attempt_at).not.toBeNull();
    const pending = await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries?status=pending`);
    expectStatus(pending, 200);
    expect(pending.body.data.map((d: { event_type: string }) => d.event_type)).toEqual([
      "project.created",
      "project.created",
      "project.created",
    ]);
    expect((await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries?status=lost`)).status).toBe(400);
    expect((await server.client.get("/v1/webhooks/we_doesNotExist0000/deliveries")).status).toBe(404);
  });

  it("redelivers an event as a new pending delivery with fresh attempts", async () => {
    const endpoint = expectBody(await create({ url: "https://example.com/redeliver", enabled_events: ["*"] }), 201);
    const original = expectBody(await server.client.post(`/v1/webhooks/${endpoint.id}/test`), 202);
    await server.storage.db
      .update(webhookDeliveries)
      .set({ status: "failed", attempts: 8, responseStatus: 500, lastAttemptAt: new Date(), nextAttemptAt: null })
      .where(eq(webhookDeliveries.id, original.id));

    const again = await server.client.post(`/v1/webhooks/${endpoint.id}/deliveries/${original.id}/redeliver`);
    expectStatus(again, 202);
    expect(again.headers.get("location")).toBe(`/v1/webhooks/${endpoint.id}/deliveries/${again.body.id}`);
    const originalNow = await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries/${original.id}`);
    expect(originalNow.body).toMatchObject({
      id: original.id,
      status: "failed",
      attempts: 8,
      response_status: 500,
      next_attempt_at: null,
    });
    expect(again.body).toMatchObject({
      webhook_endpoint_id: endpoint.id,
      event_id: original.event_id,
      event_type: "webhook.test",
      status: "pending",
      attempts: 0,
      response_status: null,
      last_attempt_at: null,
    });
    expect(again.body.id).not.toBe(original.id);

    const list = await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries`);
    expectStatus(list, 200);
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([again.body.id, original.id]);
    expect(list.body.data[1]).toMatchObject({ status: "failed", attempts: 8 });

    // The delivery must belong to the endpoint in the path.
    const other = expectBody(await create({ url: "https://example.com/elsewhere", enabled_events: ["*"] }), 201);
    const wrongEndpoint = await server.client.post(`/v1/webhooks/${other.id}/deliveries/${original.id}/redeliver`);
    expectStatus(wrongEndpoint, 404);
    expect(wrongEndpoint.body.error).toMatchObject({ code: "not_found", param: "delivery_id" });
    expect((await server.client.get(`/v1/webhooks/${other.id}/deliveries/${original.id}`)).status).toBe(404);
    expect(
      expectBody(await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries/dlv_doesNotExist0000`), 404).error
        .param,
    ).toBe("delivery_id");
    expect(
      (await server.client.post(`/v1/webhooks/${endpoint.id}/deliveries/dlv_doesNotExist0000/redeliver`)).status,
    ).toBe(404);
  });

  it("sends a test event and redelivers at most once per Idempotency-Key", async () => {
    const endpoint = expectBody(await create({ url: "https://example.com/once", enabled_events: ["*"] }), 201);
    const headers = { "Idempotency-Key": "test-event-once" };
    const first = await server.client.post(`/v1/webhooks/${endpoint.id}/test`, undefined, { headers });
    expectStatus(first, 202);
    const again = await server.client.post(`/v1/webhooks/${endpoint.id}/test`, undefined, { headers });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const redelivered = await server.client.post(
      `/v1/webhooks/${endpoint.id}/deliveries/${first.body.id}/redeliver`,
      undefined,
      {
        headers: { "Idempotency-Key": "redeliver-once" },
      },
    );
    expectStatus(redelivered, 202);
    const redeliveredAgain = await server.client.post(
      `/v1/webhooks/${endpoint.id}/deliveries/${first.body.id}/redeliver`,
      undefined,
      {
        headers: { "Idempotency-Key": "redeliver-once" },
      },
    );
    expectStatus(redeliveredAgain, 202);
    expect(redeliveredAgain.body.id).toBe(redelivered.body.id);
    const deliveries = await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries`);
    expectStatus(deliveries, 200);
    expect(deliveries.body.data.map((d: { id: string }) => d.id)).toEqual([redelivered.body.id, first.body.id]);
  });

  it("deletes an endpoint with its deliveries", async () => {
    const endpoint = expectBody(await create({ url: "https://example.com/gone", enabled_events: ["*"] }), 201);
    await server.client.post(`/v1/webhooks/${endpoint.id}/test`);
    await server.client.post(`/v1/webhooks/${endpoint.id}/test`);

    expect((await server.client.delete(`/v1/webhooks/${endpoint.id}`)).status).toBe(204);
    const gone = await server.client.get(`/v1/webhooks/${endpoint.id}`);
    expectStatus(gone, 404);
    expect(gone.body.error).toMatchObject({ code: "not_found", param: "webhook_endpoint_id" });
    expect((await server.client.get(`/v1/webhooks/${endpoint.id}/deliveries`)).status).toBe(404);
    expect((await server.client.patch(`/v1/webhooks/${endpoint.id}`, { status: "enabled" })).status).toBe(404);
    expect((await server.client.delete(`/v1/webhooks/${endpoint.id}`)).status).toBe(404);
    const list = await server.client.get("/v1/webhooks?limit=100");
    expectStatus(list, 200);
    expect(list.body.data.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
    const left = await server.storage.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookEndpointId, endpoint.id));
    expect(left).toEqual([]);
  });

  it("keeps endpoints to their workspace and environment", async () => {
    const endpoint = expectBody(await create({ url: "https://example.com/live", enabled_events: ["*"] }), 201);
    const delivery = expectBody(await server.client.post(`/v1/webhooks/${endpoint.id}/test`), 202);
    const testKey = server.as(await server.createKey({ environment: "test" }));
    const stranger = server.as(await server.createKey({ workspace: "globex" }));

    for (const client of [testKey, stranger]) {
      expect((await client.get(`/v1/webhooks/${endpoint.id}`)).status).toBe(404);
      expect((await client.patch(`/v1/webhooks/${endpoint.id}`, { status: "disabled" })).status).toBe(404);
      expect((await client.post(`/v1/webhooks/${endpoint.id}/test`)).status).toBe(404);
      expect((await client.get(`/v1/webhooks/${endpoint.id}/deliveries`)).status).toBe(404);
      expect((await client.post(`/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`)).status).toBe(404);
      expect((await client.delete(`/v1/webhooks/${endpoint.id}`)).status).toBe(404);
      const list = await client.get("/v1/webhooks?limit=100");
      expectStatus(list, 200);
      expect(list.body.data.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
    }
    expect(expectBody(await server.client.get(`/v1/webhooks/${endpoint.id}`), 200).status).toBe("enabled");

    // A test key's endpoint lives in the test partition, and its test event is not livemode.
    const sandbox = expectBody(
      await testKey.post("/v1/webhooks", {
        url: "https://example.com/sandbox",
        enabled_events: ["*"],
      }),
      201,
    );
    const [row] = await server.storage.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, sandbox.id));
    expect(row!.environment).toBe("test");
    const sent = await testKey.post(`/v1/webhooks/${sandbox.id}/test`);
    expectStatus(sent, 202);
    expect(expectBody(await testKey.get(`/v1/events/${sent.body.event_id}`), 200).livemode).toBe(false);
    expect((await server.client.get(`/v1/webhooks/${sandbox.id}`)).status).toBe(404);
  });

  it("needs webhooks:read to read and webhooks:write to change", async () => {
    const endpoint = expectBody(await create({ url: "https://example.com/scopes", enabled_events: ["*"] }), 201);
    const reader = server.as(await server.createKey({ scopes: ["webhooks:read"] }));
    expect((await reader.get(`/v1/webhooks/${endpoint.id}`)).status).toBe(200);
    expect((await reader.get(`/v1/webhooks/${endpoint.id}/deliveries`)).status).toBe(200);
    for (const refused of [
      await reader.post("/v1/webhooks", { url: "https://example.com/x", enabled_events: ["*"] }),
      await reader.patch(`/v1/webhooks/${endpoint.id}`, { status: "disabled" }),
      await reader.post(`/v1/webhooks/${endpoint.id}/test`),
      await reader.delete(`/v1/webhooks/${endpoint.id}`),
    ]) {
      expectStatus(refused, 401);
      expect(refused.body.error.code).toBe("insufficient_scope");
    }
    const writer = server.as(await server.createKey({ scopes: ["webhooks:write"] }));
    expectApiError(await writer.get(`/v1/webhooks/${endpoint.id}`), 401, "insufficient_scope");
    expect((await writer.post(`/v1/webhooks/${endpoint.id}/test`)).status).toBe(202);
  });
});
