// Webhook deliveries sent for real, on both storage drivers, to receivers on this machine: a
// project's life arrives signed (checked by our verifier and by the standardwebhooks library), a
// failing receiver is retried with the same webhook-id, 410 disables the endpoint, a blackholed
// endpoint does not hold up another, bad answers are recorded, secrets rotate, and registration
// refuses addresses a delivery may not reach.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { verifyWebhook } from "../src/domain/webhook-signature.ts";
import type { Resolver } from "../src/domain/webhook-targets.ts";
import { webhookEndpoints } from "../src/storage/schema.ts";
import { expectBody, expectStatus, type ApiResponse, type Schemas } from "./support/api-client.ts";
import { forEachDriver, onEmbeddedDatabase } from "./support/database.ts";
import { final, pollUntil } from "./support/poll.ts";
import { startReceiver, type Receiver } from "./support/receiver.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

/** Where a test event's delivery is: the Location of the 202 that sent it. */
const deliveryAt = (sent: ApiResponse) => sent.headers.get("location") as `/v1/webhooks/${string}/deliveries/${string}`;

forEachDriver("webhook deliveries", (driver) => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    // Retries after 200 ms instead of 5 s, 5 min, …: three retries, then the delivery fails.
    server = await startTestServer(driver, {
      workers: true,
      webhooks: { deliver: true, allowPrivateNetworks: true, retrySchedule: [200, 200, 200] },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  async function register(path: string, enabledEvents: (Schemas["EventType"] | "*")[] = ["*"]) {
    const created = await server.client.post("/v1/webhooks", {
      url: `${receiver.url}${path}`,
      enabled_events: enabledEvents,
    });
    expectStatus(created, 201);
    return created.body;
  }
  const deliveryOf = async (endpointId: string, eventId: string) => {
    const list = expectBody(await server.client.get(`/v1/webhooks/${endpointId}/deliveries?limit=100`), 200).data;
    const delivery = list.find((entry) => entry.event_id === eventId)!;
    // Made inside the statement that records the event, in the format of every id.
    expect(delivery.id).toMatch(/^dlv_[0-9A-Za-z]{24}$/);
    return `/v1/webhooks/${endpointId}/deliveries/${delivery.id}` as const;
  };

  it("delivers a project's life, signed, within seconds of each event", async () => {
    const endpoint = await register("/life");
    const created = await server.client.post("/v1/projects", {
      name: "Hooked",
      prompt: "A page",
      visibility: "public",
    });
    expectStatus(created, 201);
    await pollUntil(server.client, `/v1/projects/${created.body.id}`, final);
    const deployment = await server.client.post(`/v1/projects/${created.body.id}/deployments`);
    expectStatus(deployment, 202);
    await pollUntil(server.client, `/v1/projects/${created.body.id}/deployments/${deployment.body.id}`, final);

    const wanted = [
      "project.created",
      "agent_run.queued",
      "agent_run.started",
      "agent_run.succeeded",
      "version.created",
      "deployment.queued",
      "deployment.ready",
    ];
    const received = await receiver.waitFor("/life", wanted.length);
    const standard = new Webhook(endpoint.secret);
    const types: string[] = [];
    for (const request of received) {
      const headers = request.headers as Record<string, string>;
      expect(headers["x-svc-signature"]).toBe(headers["webhook-signature"]);
      expect(headers["content-type"]).toBe("application/json");
      expect(
        verifyWebhook({
          id: headers["webhook-id"]!,
          timestamp: headers["webhook-timestamp"]!,
          body: request.body,
          signature: headers["webhook-signature"]!,
          secret: endpoint.secret,
        }),
      ).toEqual({ ok: true });
      const event = standard.verify(request.body, headers) as { id: string; type: string };
      expect(event.id).toBe(headers["webhook-id"]);
      types.push(event.type);
    }
    expect(types.sort()).toEqual([...wanted].sort());

    // Each event reached the receiver promptly (the worker polls every 100 ms, the agent's run goes on
    // meanwhile): within 10 seconds of being recorded, a deadline that leaves room for a loaded
    // machine (8.7 s seen at a load average of 16 on 2 cores), not a measure of speed.
    const events = expectBody(await server.client.get("/v1/events?limit=100"), 200).data;
    for (const request of received) {
      const event = events.find((e) => e.id === request.headers["webhook-id"])!;
      expect(request.at - Date.parse(event.created_at)).toBeLessThan(10_000);
    }
    const delivery = expectBody(
      await server.client.get(await deliveryOf(endpoint.id, received[0]!.headers["webhook-id"] as string)),
      200,
    );
    expect(delivery).toMatchObject({
      status: "succeeded",
      attempts: 1,
      attempt_log: [{ response_status: 200, error: null, response_body: "ok" }],
    });
  });

  it("retries a failing receiver with the same webhook-id until it answers 2xx, recording every attempt", async () => {
    const endpoint = await register("/flaky");
    receiver.answer("/flaky", { status: 500, body: "try later" }, 200);
    const sent = await server.client.post(`/v1/webhooks/${endpoint.id}/test`);
    const [first, second] = await receiver.waitFor("/flaky", 2);
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    const delivery = await pollUntil(server.client, deliveryAt(sent), (d) => d.status !== "pending");
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(delivery.attempt_log!.map((attempt) => attempt.response_status)).toEqual([200, 500]);
    expect(delivery.attempt_log![1]!.response_body).toBe("try later");
  });

  it("fails a delivery after the last retry, and records why each attempt failed", async () => {
    const endpoint = await register("/broken");
    receiver.answer("/broken", (response) => response.writeHead(302, { Location: "http://169.254.169.254/" }).end());
    const sent = await server.client.post(`/v1/webhooks/${endpoint.id}/test`);
    const delivery = await pollUntil(server.client, deliveryAt(sent), (d) => d.status !== "pending");
    expect(delivery).toMatchObject({ status: "failed", attempts: 4 });
    for (const attempt of delivery.attempt_log!) expect(attempt.error).toContain("redirects are not followed");
    // Only the four attempts: the redirect was not followed.
    expect(receiver.received.filter((r) => r.path === "/broken")).toHaveLength(4);
  });

  it("disables an endpoint that answers 410 Gone, saying why", async () => {
    const endpoint = await register("/gone");
    receiver.answer("/gone", 410);
    const sent = await server.client.post(`/v1/webhooks/${endpoint.id}/test`);
    const delivery = await pollUntil(server.client, deliveryAt(sent), (d) => d.status !== "pending");
    expect(delivery).toMatchObject({ status: "failed", attempts: 1 });
    const disabled = expectBody(await server.client.get(`/v1/webhooks/${endpoint.id}`), 200);
    expect(disabled).toMatchObject({ status: "disabled", disabled_reason: "The endpoint answered 410 Gone." });
    const enabled = await server.client.patch(`/v1/webhooks/${endpoint.id}`, { status: "enabled" });
    expect(enabled.body).toMatchObject({ status: "enabled", disabled_reason: null });
  });

  it("disables an endpoint whose deliveries have all failed for 3 days", async () => {
    const endpoint = await register("/dying");
    receiver.answer("/dying", 503);
    // Its failures began more than 3 days ago.
    await server.storage.db
      .update(webhookEndpoints)
      .set({ failingSince: new Date(Date.now() - 3 * 24 * 3_600_000 - 60_000) })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await server.client.post(`/v1/webhooks/${endpoint.id}/test`);
    await receiver.waitFor("/dying", 1);
    const disabled = await pollUntil(server.client, `/v1/webhooks/${endpoint.id}`, (e) => e.status === "disabled");
    expect(disabled.disabled_reason).toBe("Every delivery to the endpoint failed for 3 days.");

    // A success in between starts the count again.
    const healthy = await register("/recovering");
    receiver.answer("/recovering", 500, 200);
    await server.storage.db
      .update(webhookEndpoints)
      .set({ failingSince: new Date(Date.now() - 60_000) })
      .where(eq(webhookEndpoints.id, healthy.id));
    const sent = await server.client.post(`/v1/webhooks/${healthy.id}/test`);
    await pollUntil(server.client, deliveryAt(sent), (d) => d.status === "succeeded");
    const [row] = await server.storage.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, healthy.id));
    expect(row!.failingSince).toBeNull();
    expect(row!.status).toBe("enabled");
  });

  it("does not let a blackholed endpoint delay another's deliveries, and records huge and garbage answers", async () => {
    const stuck = await register("/blackhole");
    const healthy = await register("/healthy");
    const noisy = await register("/noisy");
    receiver.answer("/blackhole", () => {}); // never answers: every attempt waits out its 10 s
    receiver.answer("/noisy", { status: 200, body: "x".repeat(5 * 1024 * 1024) });
    for (let i = 0; i < 3; i++) await server.client.post(`/v1/webhooks/${stuck.id}/test`);
    const started = Date.now();
    const sent = await server.client.post(`/v1/webhooks/${healthy.id}/test`);
    await receiver.waitFor("/healthy", 1);
    // Well within the 10 s a blackholed attempt takes, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect((await pollUntil(server.client, deliveryAt(sent), (d) => d.status !== "pending")).status).toBe("succeeded");

    const loud = await server.client.post(`/v1/webhooks/${noisy.id}/test`);
    const answered = await pollUntil(server.client, deliveryAt(loud), (d) => d.status !== "pending");
    expect(answered.status).toBe("succeeded");
    expect(answered.attempt_log![0]!.response_body).toHaveLength(1024);

    // Not HTTP at all: recorded as a failed attempt, and retried.
    const garbled = await register("/garbage");
    receiver.answer("/garbage", (response) => response.socket!.end("this is not HTTP\r\n\r\n"));
    const sentGarbage = await server.client.post(`/v1/webhooks/${garbled.id}/test`);
    const garbage = await pollUntil(server.client, deliveryAt(sentGarbage), (d) => d.status !== "pending");
    expect(garbage).toMatchObject({ status: "failed", attempts: 4 });
    expect(garbage.attempt_log![0]).toMatchObject({ response_status: null, error: expect.any(String) });
  });

  it("signs with the new and the previous secret for a day after a rotation", async () => {
    const endpoint = await register("/rotated");
    const rotated = await server.client.post(`/v1/webhooks/${endpoint.id}/rotate-secret`, undefined, {
      headers: { "Idempotency-Key": `rotate-${endpoint.id}` },
    });
    expectStatus(rotated, 200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    // A retried rotation answers the same secret rather than rotating twice.
    const again = await server.client.post(`/v1/webhooks/${endpoint.id}/rotate-secret`, undefined, {
      headers: { "Idempotency-Key": `rotate-${endpoint.id}` },
    });
    expectStatus(again, 200);
    expect(again.body.secret).toBe(rotated.body.secret);

    await server.client.post(`/v1/webhooks/${endpoint.id}/test`);
    const [request] = await receiver.waitFor("/rotated", 1);
    const headers = request!.headers as Record<string, string>;
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    for (const secret of [rotated.body.secret, endpoint.secret]) {
      expect(new Webhook(secret).verify(request!.body, headers)).toMatchObject({ type: "webhook.test" });
    }
  });

  it("redelivers through the same path, with the same webhook-id", async () => {
    const endpoint = await register("/again");
    const sent = await server.client.post(`/v1/webhooks/${endpoint.id}/test`);
    await pollUntil(server.client, deliveryAt(sent), (d) => d.status !== "pending");
    const redelivered = await server.client.post(`${deliveryAt(sent)}/redeliver`);
    expect(redelivered.status).toBe(202);
    const [first, second] = await receiver.waitFor("/again", 2);
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
  });
});

onEmbeddedDatabase("webhook targets", (driver) => {
  let server: TestServer;
  // A stub resolver: the names a test controls, and what they resolve to (nothing here connects to
  // a public address: the only deliveries made go to names that resolve to refused ones).
  const table: Record<string, string[]> = {
    "public.test": ["93.184.216.34"],
    "sneaky.test": ["93.184.216.34", "10.0.0.7"],
    "metadata.test": ["169.254.169.254"],
    "rebind.test": ["93.184.216.34"],
  };
  const resolve: Resolver = async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  beforeAll(async () => {
    server = await startTestServer(driver, { webhooks: { resolve, deliver: true, retrySchedule: [] } });
  });
  afterAll(() => server?.stop());

  const create = (url: string) => server.client.post("/v1/webhooks", { url, enabled_events: ["*"] });

  it("refuses loopback, private, link-local, mapped and unspecified addresses, and names resolving to them", async () => {
    for (const url of [
      "https://127.0.0.1/hook",
      "https://10.0.0.1/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://0.0.0.0/hook",
      "https://[fd00::1]/hook",
      "https://sneaky.test/hook",
      "https://metadata.test/hook",
    ]) {
      const refused = await create(url);
      expectStatus(refused, 400, url);
      expect(refused.body.error, url).toMatchObject({ code: "invalid_request", param: "url" });
    }
  });

  it("refuses plain http, credentials and overlong URLs, and accepts a public https URL", async () => {
    for (const url of [
      "http://public.test/hook",
      "https://user:pass@public.test/hook",
      `https://public.test/${"a".repeat(2100)}`,
      "public.test/hook",
    ]) {
      const refused = await create(url);
      expectStatus(refused, 400, url);
      expect(refused.body.error.param, url).toBe("url");
    }
    expect((await create("https://public.test/hook")).status).toBe(201);
  });

  it("refuses at delivery a name that resolves to a refused address by then (DNS rebinding), without connecting", async () => {
    table["rebind.test"] = ["93.184.216.34"];
    const endpoint = expectBody(await create("https://rebind.test/hook"), 201);
    table["rebind.test"] = ["127.0.0.1"];
    const sent = await server.client.post(`/v1/webhooks/${endpoint.id}/test`);
    const delivery = await pollUntil(server.client, deliveryAt(sent), (d) => d.status !== "pending");
    expect(delivery).toMatchObject({ status: "failed", attempts: 1 });
    expect(delivery.attempt_log![0]!.error).toContain("refused");
    expect(delivery.attempt_log![0]!.error).toContain("127.0.0.1");
  });

  it("refuses the same addresses when a URL is changed", async () => {
    const endpoint = expectBody(await create("https://public.test/hook"), 201);
    const refused = await server.client.patch(`/v1/webhooks/${endpoint.id}`, { url: "https://sneaky.test/hook" });
    expectStatus(refused, 400);
    expect(refused.body.error.param).toBe("url");
  });
});
