// The live event stream (GET /v1/events/stream) over HTTP, on every storage driver: a project's
// events live through its run's end, resuming with Last-Event-ID after a restart with nothing
// repeated or missed, filters and scopes, bad parameters, the per-key limit, heartbeats, a slow
// reader cut while the server's memory stays flat, and (on PostgreSQL) events written by another
// replica.
import { setTimeout as sleep } from "node:timers/promises";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { StoppingError } from "../src/domain/errors.ts";
import { createEventStreams } from "../src/domain/event-stream.ts";
import { recordEvents } from "../src/domain/events.ts";
import { createLogger } from "../src/logger.ts";
import { findWorkspaceBySlug } from "../src/domain/workspaces.ts";
import { forEachDriver, postgresDriver, type TestDriver } from "./support/database.ts";
import { objectOf, ofType, openOlderTransaction, openStream, type StreamMessage } from "./support/event-stream.ts";
import { expectBody, expectStatus, type ApiClient } from "./support/api-client.ts";
import { final, pollUntil } from "./support/poll.ts";
import { startTestServer, suiteServer } from "./support/server.ts";

/** A driver whose every `open` is the same database, for a server started again on it, or a second replica. */
async function sharedDatabase(driver: TestDriver) {
  const database = await driver.forProcess();
  const shared: TestDriver = { ...driver, open: () => database.open() };
  return { driver: shared, dispose: () => database.dispose() };
}

const ids = (messages: StreamMessage[]) => messages.map((message) => message.id);

/** The workspace's events, as GET /v1/events lists them (events of one change share their time, so their order is the stream's alone). */
async function listedEvents(client: ApiClient): Promise<{ id: string; type: string; created_at: string }[]> {
  const listed = await client.get("/v1/events?limit=100");
  expectStatus(listed, 200);
  return listed.body.data;
}

/** Received: every listed event but those before the resume point, each once, in time order. */
function expectEverythingAfter(received: StreamMessage[], listed: { id: string }[], before: string[]) {
  const expected = listed.map((event) => event.id).filter((id) => !before.includes(id));
  expect(ids(received).toSorted()).toEqual(expected.toSorted());
  const times = received.map((message) => message.data.created_at);
  expect(times).toEqual(times.toSorted());
}

forEachDriver("event stream", (driver) => {
  describe("on one server", () => {
    const server = suiteServer(driver, { workers: true, eventStreams: { heartbeatMs: 200 } });

    it("carries a project's events live, in order, through its run's end, as GET /v1/events has them", async () => {
      const stream = await openStream(server.url, await server.createKey({ workspace: "live-run" }));
      expect(stream.status).toBe(200);
      expect(stream.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
      const key = await server.createKey({ workspace: "live-run" });
      const created = await server
        .as(key)
        .post("/v1/projects", { name: "Live", prompt: "A landing page for a bakery" });
      expectStatus(created, 201);
      const messages = await stream.until((all) => all.some((m) => m.event === "agent_run.succeeded"), 30_000);
      const types = messages.map((m) => m.event);
      expect(types.slice(0, 3)).toEqual(["project.created", "agent_run.queued", "agent_run.started"]);
      const progress = ofType(messages, "agent_run.progress");
      expect(progress.length).toBeGreaterThan(0);
      expect(progress[0]!.data.data.object).toMatchObject({
        agent_run_id: created.body.latest_run_id,
        project_id: created.body.id,
        message: expect.stringMatching(/^Wrote /),
      });
      expect(progress.at(-1)!.data.data.object.paths).toContain("index.html");
      // Every progress event comes before the run's end.
      expect(types.lastIndexOf("agent_run.progress")).toBeLessThan(types.indexOf("agent_run.succeeded"));
      // Each message is `id` = the event's id, `event` = its type, `data` = the very object GET /v1/events/{id} answers.
      for (const message of messages) {
        expect(message.id).toBe(message.data.id);
        expect(message.event).toBe(message.data.type);
        const fetched = await server.as(key).get(`/v1/events/${message.id}`);
        expect(fetched.body).toEqual(message.data);
      }
      const listed = await server.as(key).get("/v1/events?type=agent_run.progress");
      expectStatus(listed, 200);
      expect(listed.body.data.map((event: { id: string }) => event.id).sort()).toEqual(ids(progress).sort());
      // One audit row, for the stream's start.
      const row = await server.auditRow(stream.headers["x-request-id"] as string);
      expect(row).toMatchObject({ route: "/v1/events/stream", status: 200 });
      stream.close();
      await pollUntil(server.as(key), `/v1/projects/${created.body.id}`, final);
    });

    it("delivers agent_run.progress by webhook only to endpoints that name it, not to `*`", async () => {
      const key = server.as(await server.createKey({ workspace: "progress-hooks" }));
      const everything = await key.post("/v1/webhooks", { url: "https://example.com/all", enabled_events: ["*"] });
      expectStatus(everything, 201);
      const progress = await key.post("/v1/webhooks", {
        url: "https://example.com/progress",
        enabled_events: ["agent_run.progress"],
      });
      expectStatus(progress, 201);
      expect([everything.status, progress.status]).toEqual([201, 201]);
      const created = await key.post("/v1/projects", { name: "Hooked", prompt: "A page" });
      expectStatus(created, 201);
      await pollUntil(key, `/v1/projects/${created.body.id}/runs/${created.body.latest_run_id}`, final, 30_000);
      const typesDelivered = async (endpoint: string) => {
        const deliveries = await key.get(`/v1/webhooks/${endpoint}/deliveries?limit=100`);
        expectStatus(deliveries, 200);
        const types = await Promise.all(
          deliveries.body.data.map(
            async (delivery: { event_id: string }) =>
              expectBody(await key.get(`/v1/events/${delivery.event_id}`), 200).type,
          ),
        );
        return [...new Set(types)].sort();
      };
      expect(await typesDelivered(progress.body.id)).toEqual(["agent_run.progress"]);
      const toAll = await typesDelivered(everything.body.id);
      expect(toAll).toContain("agent_run.succeeded");
      expect(toAll).not.toContain("agent_run.progress");
    });

    it("filters by project and type, and shows a key only the event types its scopes can read", async () => {
      const owner = await server.createKey({ workspace: "filters" });
      const filesOnly = await server.createKey({ workspace: "filters", scopes: ["files:read"] });
      const first = await server.as(owner).post("/v1/projects", { name: "First", prompt: "x" });
      expectStatus(first, 201);
      const byProject = await openStream(
        server.url,
        owner,
        `?project_id=${first.body.id}&types=file.uploaded&types=project.updated`,
      );
      const byScope = await openStream(server.url, filesOnly);
      const everything = await openStream(server.url, owner);
      const second = await server.as(owner).post("/v1/projects", { name: "Second", prompt: "y" });
      expectStatus(second, 201);
      for (const project of [second.body.id, first.body.id]) {
        const form = new FormData();
        form.append("file", new Blob(["hello"], { type: "text/plain" }), "notes.txt");
        expect((await server.as(owner).request("POST", `/v1/projects/${project}/files`, { raw: form })).status).toBe(
          201,
        );
      }
      await server.as(owner).patch(`/v1/projects/${first.body.id}`, { name: "First, renamed" });
      await everything.until((all) => all.some((m) => m.event === "project.updated"));
      const onlyFirst = await byProject.until((all) => all.some((m) => m.event === "project.updated"));
      expect(onlyFirst.map((m) => [m.event, objectOf(m).project_id ?? objectOf(m).id])).toEqual([
        ["file.uploaded", first.body.id],
        ["project.updated", first.body.id],
      ]);
      const files = await byScope.until((all) => all.length >= 2);
      await sleep(200);
      expect(byScope.messages.map((m) => m.event)).toEqual(["file.uploaded", "file.uploaded"]);
      expect(files.map((m) => objectOf(m).project_id)).toEqual([second.body.id, first.body.id]);
      for (const stream of [byProject, byScope, everything]) stream.close();
    });

    it("refuses, in the error shape, what a key's scopes cannot read and parameters that are not valid", async () => {
      const filesOnly = server.as(await server.createKey({ workspace: "refusals", scopes: ["files:read"] }));
      const billingOnly = server.as(await server.createKey({ workspace: "refusals", scopes: ["billing:read"] }));
      const full = server.as(await server.createKey({ workspace: "refusals" }));
      const other = server.as(await server.createKey({ workspace: "refusals-other" }));
      const expectError = async (
        response: { status: number; body: unknown },
        status: number,
        code: string,
        param: string | null,
      ) => {
        expect(response.status).toBe(status);
        expect(response.body).toMatchObject({ error: { code, param } });
      };
      await expectError(
        await filesOnly.get("/v1/events/stream?types=project.created"),
        401,
        "insufficient_scope",
        "types",
      );
      await expectError(await billingOnly.get("/v1/events/stream"), 401, "insufficient_scope", null);
      await expectError(
        await full.get("/v1/events/stream?types=project.created&types=project.exploded"),
        400,
        "invalid_request",
        "types.1",
      );
      await expectError(await full.get("/v1/events/stream?project_id=nope"), 400, "invalid_request", "project_id");
      await expectError(
        await full.get("/v1/events/stream?last_event_id=evt_unknown0000000000"),
        400,
        "invalid_request",
        "last_event_id",
      );
      const malformed = await full.get("/v1/events/stream", { headers: { "Last-Event-ID": "not-an-event" } });
      expectStatus(malformed, 400);
      expect(malformed.body.error.param).toMatch(/^last-event-id$/i);
      // Another workspace's event is no event of this one.
      await other.post("/v1/projects", { name: "Theirs", prompt: "z" });
      const [theirs] = expectBody(await other.get("/v1/events?limit=1"), 200).data;
      await expectError(
        await full.get("/v1/events/stream", { headers: { "Last-Event-ID": theirs!.id } }),
        400,
        "invalid_request",
        "Last-Event-ID",
      );
    });

    it("sends a heartbeat comment while no event is sent", async () => {
      const stream = await openStream(server.url, await server.createKey({ workspace: "heartbeat" }));
      expect(await stream.nextComment(2000)).toBe("heartbeat");
      expect(await stream.nextComment(2000)).toBe("heartbeat");
      expect(stream.messages).toEqual([]);
      stream.close();
    });
  });

  describe("bounds", () => {
    const server = suiteServer(driver, { eventStreams: { perKey: 5, maxBufferedBytes: 64 * 1024 } });

    it("opens at most EVENT_STREAMS_PER_KEY streams per key: the next answers 429 too_many_streams", async () => {
      const key = await server.createKey({ workspace: "limits" });
      const open = await Promise.all(Array.from({ length: 5 }, () => openStream(server.url, key)));
      expect(open.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);
      const refused = await server.as(key).get("/v1/events/stream");
      expectStatus(refused, 429);
      expect(refused.body.error).toMatchObject({ code: "too_many_streams", param: null });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another key of the same workspace has its own count.
      const another = await openStream(server.url, await server.createKey({ workspace: "limits" }));
      expect(another.status).toBe(200);
      // A stream closed by its client frees its place.
      open[0]!.close();
      const deadline = Date.now() + 5000;
      let again = await openStream(server.url, key);
      while (again.status === 429 && Date.now() < deadline) {
        await sleep(50);
        again = await openStream(server.url, key);
      }
      expect(again.status).toBe(200);
      for (const stream of [...open, another, again]) stream.close();
    });

    it("refuses new streams once stopping (503 for the client, which reconnects elsewhere), and ends those open", async () => {
      const streams = createEventStreams({
        db: server.storage.db,
        changes: server.storage.changes,
        logger: createLogger({ level: "silent" }),
      });
      const request = {
        partition: { workspaceId: "ws_none", environment: "live" as const },
        keyId: "key_stopping",
        scopes: ["*"],
      };
      const open = await streams.open(request);
      let ended = false;
      open.follow({ send: () => true, end: () => void (ended = true) });
      expect(streams.size).toBe(1);
      streams.close();
      expect(ended).toBe(true);
      expect(streams.size).toBe(0);
      await expect(streams.open(request)).rejects.toBeInstanceOf(StoppingError);
    });

    it("reads without notifications while the change feed is down, and on the safety-net poll", async () => {
      const workspace = await server
        .createKey({ workspace: "no-notifications" })
        .then(() => findWorkspaceBySlug(server.storage.db, "no-notifications"));
      const partition = { workspaceId: workspace!.id, environment: "live" as const };
      const silent = (connected: boolean) => ({ connected, subscribe: () => () => {}, close: async () => {} });
      for (const [changes, pollMs] of [
        [silent(false), 600_000],
        [silent(true), 300],
      ] as const) {
        const streams = createEventStreams({
          db: server.storage.db,
          changes,
          logger: createLogger({ level: "silent" }),
          pollMs,
        });
        const received: string[] = [];
        const open = await streams.open({ partition, keyId: "key_silent", scopes: ["*"] });
        open.follow({ send: (event) => received.push(event.id) > 0, end: () => {} });
        // Caught up and following before the event: only a poll can bring it now.
        await sleep(200);
        const [event] = await recordEvents(server.storage.db, partition, [
          { type: "webhook.test", object: { message: "m", webhook_endpoint_id: "we_silent000" } },
        ]);
        const deadline = Date.now() + 3000;
        while (received.length === 0 && Date.now() < deadline) await sleep(20);
        expect(received, changes.connected ? "the poll" : "the gap poll").toEqual([event!.id]);
        streams.close();
      }
    });

    it("disconnects a reader that stops reading, and the server's memory stays flat", async () => {
      v8.setFlagsFromString("--expose-gc");
      const gc = runInNewContext("gc") as () => void;
      const key = await server.createKey({ workspace: "slow-reader" });
      const workspace = (await findWorkspaceBySlug(server.storage.db, "slow-reader"))!;
      const partition = { workspaceId: workspace.id, environment: "live" as const };
      while (server.app.openEventStreams > 0) await sleep(20);
      const stream = await openStream(server.url, key);
      // Not read from here on: what the server writes piles up in the socket's buffers.
      stream.response.pause();
      await sleep(100);
      gc();
      const before = process.memoryUsage().heapUsed;
      // 40 MB of events, far more than the kernel's socket buffers and the 64 KiB bound hold.
      const padding = "x".repeat(20_000);
      const written: string[] = [];
      for (let batch = 0; batch < 100; batch++) {
        const recorded = await recordEvents(
          server.storage.db,
          partition,
          Array.from({ length: 20 }, (_, i) => ({
            type: "webhook.test" as const,
            object: { message: padding, webhook_endpoint_id: `we_slow${batch}x${i}aaaa` },
          })),
        );
        written.push(...recorded.map((event) => event.id));
      }
      const deadline = Date.now() + 20_000;
      while (server.app.openEventStreams > 0 && Date.now() < deadline) await sleep(50);
      expect(server.app.openEventStreams, "the stream was cut").toBe(0);
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      expect(grown, `heap grew by ${(grown / 1e6).toFixed(1)} MB while 40 MB of events were written`).toBeLessThan(
        10_000_000,
      );
      stream.response.resume();
      expect(await stream.ended).toBe("aborted");
      // What it did receive is a prefix of the events, in order: it resumes with the last one's id.
      expect(stream.messages.length).toBeLessThan(written.length);
      expect(ids(stream.messages)).toEqual(written.slice(0, stream.messages.length));
    }, 60_000);
  });

  it("resumes with Last-Event-ID after a restart: nothing repeated, nothing missed, written while away included", async () => {
    const database = await sharedDatabase(driver);
    let server = await startTestServer(database.driver);
    try {
      const key = await server.createKey({ workspace: "resume" });
      const stream = await openStream(server.url, key);
      await server.as(key).post("/v1/projects", { name: "Before", prompt: "a" });
      const seen = await stream.until((all) => all.length >= 2);
      const last = seen[0]!;
      stream.close();
      // Written while the client is away, before and after the restart.
      await server.as(key).post("/v1/projects", { name: "Away", prompt: "b" });
      const resumedBeforeStop = await openStream(server.url, key, "", { "Last-Event-ID": last.id });
      await resumedBeforeStop.until((all) => all.length >= 3);
      // A stopping server ends its streams cleanly.
      const stopping = server.stop();
      expect(await resumedBeforeStop.ended).toBe("end");
      await stopping;
      server = await startTestServer(database.driver);
      await server.as(key).post("/v1/projects", { name: "After", prompt: "c" });
      const listedAfterRestart = await listedEvents(server.as(key));
      expect(listedAfterRestart).toHaveLength(6);
      const resumed = await openStream(server.url, key, `?last_event_id=${last.id}`);
      await resumed.until((all) => all.length >= 5);
      await server.as(key).post("/v1/projects", { name: "Live", prompt: "d" });
      await resumed.until((all) => all.length >= 7);
      await sleep(200);
      // Nothing repeated, nothing missed: everything after the first event, once.
      expectEverythingAfter(resumed.messages, await listedEvents(server.as(key)), [last.id]);
      // Before the restart, the same: the events of the first two projects but the first.
      expect(resumedBeforeStop.messages).toHaveLength(3);
      expect(ids(resumedBeforeStop.messages)).toEqual(ids(resumed.messages).slice(0, 3));
      expect(ids(seen)).toEqual([last.id, resumed.messages[0]!.id]);
      resumed.close();
    } finally {
      await server.stop();
      await database.dispose();
    }
  }, 60_000);
});

describe.skipIf(postgresDriver.skipReason !== undefined)(
  "event stream while transactions commit out of order, on PostgreSQL",
  () => {
    const server = suiteServer(postgresDriver);

    it("holds back an event committed after an older transaction's until that one ends, and sends them in transaction order", async () => {
      const key = await server.createKey({ workspace: "out-of-order" });
      const stream = await openStream(server.url, key);
      // An older transaction records an event and stays open…
      const older = await openOlderTransaction(server, "out-of-order", "evt_olderTransaction001", "we_older0001");
      try {
        // …while a later one (this request's) commits its events first.
        const created = await server.as(key).post("/v1/projects", { name: "Later", prompt: "x" });
        expectStatus(created, 201);
        await sleep(300);
        // Had the stream sent them, a reader resuming from them would never see the older event.
        expect(stream.messages).toEqual([]);
        await older.query("commit");
      } finally {
        older.release();
      }
      const messages = await stream.until((all) => all.length >= 3, 5000);
      expect(messages.map((m) => m.event)).toEqual(["webhook.test", "project.created", "agent_run.queued"]);
      stream.close();
    });
  },
);

describe.skipIf(postgresDriver.skipReason !== undefined)("event stream across two replicas on PostgreSQL", () => {
  it("carries events another replica wrote, woken by its notification", async () => {
    const database = await sharedDatabase(postgresDriver);
    // The safety-net poll is far off: only the notification can bring the event in time.
    const replicas = await Promise.all([
      startTestServer(database.driver, { eventStreams: { pollMs: 600_000 } }),
      startTestServer(database.driver, { eventStreams: { pollMs: 600_000 } }),
    ]);
    try {
      const [a, b] = replicas;
      const key = await a.createKey({ workspace: "replicas" });
      const atA = await openStream(a.url, key);
      const started = Date.now();
      const created = await b.as(key).post("/v1/projects", { name: "From B", prompt: "x" });
      expectStatus(created, 201);
      const messages = await atA.until((all) => all.length >= 2, 5000);
      const latencyMs = Date.now() - started;
      expect(messages.map((m) => [m.event, objectOf(m).project_id ?? objectOf(m).id])).toEqual([
        ["project.created", created.body.id],
        ["agent_run.queued", created.body.id],
      ]);
      expect(latencyMs).toBeLessThan(5000);
      atA.close();
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
      await database.dispose();
    }
  }, 60_000);
});
