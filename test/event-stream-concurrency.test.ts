// The live event stream under concurrent writes, where events are easiest to lose: many streams
// open on one workspace while projects are created concurrently through the API, with the runs they
// queue writing their own events; and a stream opened just after a run's end. Every stream must receive
// every created project's event exactly once, all in the order of their positions.
//
// Positions are compared as numbers, so the test makes their digits roll over where it matters: the
// event sequence is set so that one project's two events (one transaction) straddle a power of ten
// (…9, …10), which a reader ordering positions as text puts the wrong way round.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { eventsAfter, type Position } from "../src/domain/event-positions.ts";
import { recordEvent } from "../src/domain/events.ts";
import { ensureWorkspace, findWorkspaceBySlug } from "../src/domain/workspaces.ts";
import { expectStatus } from "./support/api-client.ts";
import { forEachDriver, pgliteDriver, postgresDriver } from "./support/database.ts";
import {
  objectOf,
  openOlderTransaction,
  openStream,
  type OpenedStream,
  type StreamMessage,
} from "./support/event-stream.ts";
import { final, pollUntil } from "./support/poll.ts";
import { suiteServer } from "./support/server.ts";

const STREAMS = 12;
const ROUNDS = 3;
const CREATES_PER_ROUND = 30;

forEachDriver("event stream under concurrent creates", (driver) => {
  // Workers on: the runs the creates queue write their events meanwhile. The safety-net poll is far
  // off, so what arrives is what the notifications and the reads they wake bring.
  const server = suiteServer(driver, { workers: true, eventStreams: { pollMs: 600_000 } });

  it("gives every stream every created project's event, once, in position order", async () => {
    const workspace = "concurrent-creates";
    const keys = await Promise.all(Array.from({ length: STREAMS }, () => server.createKey({ workspace })));
    const workspaceId = (await findWorkspaceBySlug(server.storage.db, workspace))!.id;
    const streams: OpenedStream[] = await Promise.all(
      keys.map((key) => openStream(server.url, key, "?types=project.created")),
    );
    expect(streams.map((stream) => stream.status)).toEqual(streams.map(() => 200));

    const create = async (i: number) => {
      const answer = await server
        .as(keys[i % keys.length]!)
        .post("/v1/projects", { name: `Concurrent ${i}`, prompt: "x" });
      expectStatus(answer, 201);
      return answer.body.id;
    };
    // The next create's events get seq 10^k - 1 and 10^k: `project.created` first, by a digit shorter.
    const { rows: sequence } = await server.storage.db.execute<{ last: string }>(
      sql`select last_value::text as last from events_seq`,
    );
    const rollover = 10n ** BigInt(sequence[0]!.last.length + 1);
    await server.storage.db.execute(sql`select setval('events_seq', ${(rollover - 2n).toString()})`);
    const created = [await create(0)];
    for (let round = 0; round < ROUNDS; round++) {
      created.push(
        ...(await Promise.all(
          Array.from({ length: CREATES_PER_ROUND }, (_, i) => create(1 + round * CREATES_PER_ROUND + i)),
        )),
      );
    }

    const projectOf = (message: StreamMessage) => objectOf(message).id;
    const missing = (stream: OpenedStream) => {
      const seen = new Set(stream.messages.map(projectOf));
      return created.filter((id) => !seen.has(id));
    };
    // Every create has committed: its event can be passed at once, so a few seconds are plenty.
    await Promise.all(
      streams.map((stream) => stream.until(() => missing(stream).length === 0, 10_000).catch(() => undefined)),
    );
    const { rows } = await server.storage.db.execute<{ id: string }>(sql`
      select id from events where workspace_id = ${workspaceId} and environment = 'live' and type = 'project.created'
      order by events.txid, events.seq`);
    const inPositionOrder = rows.map((row) => row.id);
    expect(inPositionOrder).toHaveLength(created.length);
    for (const [i, stream] of streams.entries()) {
      expect(missing(stream), `stream ${i} never received these projects' project.created`).toEqual([]);
      expect(
        stream.messages.map((message) => message.id),
        `stream ${i}: each event once, in position order`,
      ).toEqual(inPositionOrder);
    }
    for (const stream of streams) stream.close();
  }, 120_000);
});

forEachDriver("event stream opened after a run's end", (driver) => {
  // A fresh database, as the report had it (PGlite, workers on): the first project and its run
  // record events seq 2 to 8, so the next project's pair is 9 and 10.
  const server = suiteServer(driver, { workers: true, eventStreams: { pollMs: 600_000 } });

  it("receives the next project's events within a few seconds", async () => {
    const key = await server.createKey({ workspace: "after-a-run" });
    const first = await server.as(key).post("/v1/projects", { name: "First", prompt: "A page" });
    expectStatus(first, 201);
    await pollUntil(server.as(key), `/v1/projects/${first.body.id}/runs/${first.body.latest_run_id}`, final, 30_000);
    const stream = await openStream(server.url, key);
    const second = await server.as(key).post("/v1/projects", { name: "Second", prompt: "Another page" });
    expectStatus(second, 201);
    const messages = await stream.until((all) => all.some((m) => m.event === "agent_run.succeeded"), 30_000);
    const projectEvents = messages.map((m) => [m.event, objectOf(m).project_id ?? objectOf(m).id]);
    expect(projectEvents.slice(0, 3)).toEqual([
      ["project.created", second.body.id],
      ["agent_run.queued", second.body.id],
      ["agent_run.started", second.body.id],
    ]);
    // Nothing of the first project's: it was committed before the stream opened.
    expect(projectEvents.filter(([, project]) => project !== second.body.id)).toEqual([]);
    stream.close();
  }, 60_000);
});

describe.skipIf(postgresDriver.skipReason !== undefined)(
  "event stream opened while an older transaction is open, on PostgreSQL",
  () => {
    const server = suiteServer(postgresDriver);

    it("starts now: sends what commits after it opened, including the older transaction's events, and nothing committed before", async () => {
      const key = await server.createKey({ workspace: "starts-now" });
      // An older transaction records an event and stays open: the snapshot's xmin stays at its id.
      const older = await openOlderTransaction(server, "starts-now", "evt_olderStartsNow0001", "we_older0002");
      let stream: OpenedStream | undefined;
      try {
        // Committed before the stream opens, but after the older transaction began: above xmin.
        const before = await server.as(key).post("/v1/projects", { name: "Before", prompt: "x" });
        expect(before.status).toBe(201);
        stream = await openStream(server.url, key);
        const after = await server.as(key).post("/v1/projects", { name: "After", prompt: "y" });
        expectStatus(after, 201);
        await sleep(200);
        await older.query("commit");
        const messages = await stream.until((all) => all.some((m) => m.event === "agent_run.queued"), 5000);
        await sleep(300);
        expect(
          messages.map((m) => [m.event, objectOf(m).id ?? objectOf(m).project_id ?? objectOf(m).webhook_endpoint_id]),
        ).toEqual([
          ["webhook.test", "we_older0002"],
          ["project.created", after.body.id],
          ["agent_run.queued", after.body.latest_run_id],
        ]);
      } finally {
        older.release();
        stream?.close();
      }
    });
  },
);

describe("event stream reads across a power of ten of transaction ids (PGlite: a fresh cluster is near one)", () => {
  it("reads every event once, in numeric position order, in batches of any size", async () => {
    const storage = await pgliteDriver.open();
    try {
      const db = storage.db;
      const { workspace } = await ensureWorkspace(db, { slug: "txid-rollover", plan: "pro" });
      const partition = { workspaceId: workspace.id, environment: "live" as const };
      // Each statement alone is a transaction: burn ids up to just below the next power of ten.
      const nextTxid = async () =>
        BigInt((await db.execute<{ id: string }>(sql`select pg_current_xact_id()::text as id`)).rows[0]!.id);
      const rollover = 10n ** BigInt(String(await nextTxid()).length);
      while ((await nextTxid()) < rollover - 4n);
      const recorded: string[] = [];
      for (let i = 0; i < 8; i++)
        recorded.push(
          (
            await recordEvent(db, partition, "webhook.test", {
              message: `${i}`,
              webhook_endpoint_id: `we_rollover${i}`,
            })
          ).id,
        );
      const { rows } = await db.execute<{ txid: string }>(
        sql`select min(txid)::text as txid from events where workspace_id = ${workspace.id}`,
      );
      expect(BigInt(rows[0]!.txid)).toBeLessThan(rollover);
      for (const batch of [200, 3, 1]) {
        const read: string[] = [];
        let after: Position = { txid: 0n, seq: 0n };
        for (;;) {
          const { events } = await eventsAfter(db, partition, after, batch);
          if (events.length === 0) break;
          read.push(...events.map((entry) => entry.event.id));
          after = events.at(-1)!.position;
        }
        expect(read, `in batches of ${batch}`).toEqual(recorded);
      }
    } finally {
      await storage.close();
    }
  });
});
