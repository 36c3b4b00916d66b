// Retention (AUDIT_RETENTION_DAYS): old audit rows, events and webhook delivery logs go, in
// batches; a delivery still being retried, and an event a delivery still refers to, stay. The
// `retention` job does it on a schedule, on both drivers.
import { isDeepStrictEqual } from "node:util";
import { asc, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { deleteExpiredRecords } from "../src/domain/retention.ts";
import { queues } from "../src/jobs/queue.ts";
import { newId } from "../src/storage/ids.ts";
import type { Storage } from "../src/storage/index.ts";
import {
  auditLog,
  events,
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhookEndpoints,
  workspaces,
} from "../src/storage/schema.ts";
import { forEachDriver, useStorage } from "./support/database.ts";
import { startTestServer } from "./support/server.ts";

const DAY = 24 * 3_600_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

/**
 * Events, deliveries, attempts and audit rows 100 and 10 days old, named by what should become of
 * them when everything older than 90 days goes.
 */
async function seed(storage: Storage) {
  const { db } = storage;
  const workspaceId = newId("ws");
  await db
    .insert(workspaces)
    .values({ id: workspaceId, slug: `ret-${workspaceId.slice(3, 11).toLowerCase()}`, name: "Retention" });
  const partition = { workspaceId, environment: "live" as const };
  const endpointId = newId("we");
  await db
    .insert(webhookEndpoints)
    .values({ id: endpointId, ...partition, url: "https://example.com/hook", enabledEvents: ["*"], secret: "whsec_x" });
  const event = async (name: string, at: Date) => {
    await db.insert(events).values({ id: name, ...partition, type: "project.created", data: {}, createdAt: at });
    return name;
  };
  const delivery = async (name: string, eventId: string, at: Date, status: "succeeded" | "failed" | "pending") => {
    await db.insert(webhookDeliveries).values({
      id: name,
      webhookEndpointId: endpointId,
      eventId,
      ...partition,
      status,
      attempts: 1,
      createdAt: at,
      updatedAt: at,
    });
    await db
      .insert(webhookDeliveryAttempts)
      .values({ deliveryId: name, attemptedAt: at, durationMs: 5, responseStatus: status === "succeeded" ? 200 : 500 });
  };

  await event("evt_old_delivered", daysAgo(100));
  await delivery("dlv_old_succeeded", "evt_old_delivered", daysAgo(100), "succeeded");
  await event("evt_old_failed", daysAgo(100));
  await delivery("dlv_old_failed", "evt_old_failed", daysAgo(100), "failed");
  await event("evt_old_no_endpoint", daysAgo(100));
  // Kept: still being retried.
  await event("evt_old_pending_kept", daysAgo(95));
  await delivery("dlv_old_pending_kept", "evt_old_pending_kept", daysAgo(95), "pending");
  // The old delivery goes; the event stays with its recent redelivery.
  await event("evt_old_redelivered_kept", daysAgo(100));
  await delivery("dlv_old_original", "evt_old_redelivered_kept", daysAgo(100), "succeeded");
  await delivery("dlv_redelivery_kept", "evt_old_redelivered_kept", daysAgo(1), "succeeded");
  await event("evt_recent_kept", daysAgo(10));
  await delivery("dlv_recent_kept", "evt_recent_kept", daysAgo(10), "succeeded");

  const audit = (at: Date, count: number, path: string) =>
    db.insert(auditLog).values(
      Array.from({ length: count }, (_, i) => ({
        occurredAt: at,
        workspaceId,
        method: "GET",
        path,
        status: 401,
        requestId: `req_${path}_${i}`,
      })),
    );
  await audit(daysAgo(91), 7, "old");
  await audit(daysAgo(89), 2, "kept");
  await db
    .insert(auditLog)
    .values({ occurredAt: daysAgo(120), workspaceId, action: "api_key.created", actor: "pbs", target: "key_x" });
}

async function remaining(storage: Storage) {
  const { db } = storage;
  return {
    events: (await db.select({ id: events.id }).from(events).orderBy(asc(events.id))).map((row) => row.id),
    deliveries: (
      await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).orderBy(asc(webhookDeliveries.id))
    ).map((row) => row.id),
    attempts: (
      await db
        .select({ id: webhookDeliveryAttempts.deliveryId })
        .from(webhookDeliveryAttempts)
        .orderBy(asc(webhookDeliveryAttempts.deliveryId))
    ).map((row) => row.id),
    audit: (
      await db.execute<{ path: string | null; count: number }>(
        sql`select path, count(*)::int as count from audit_log group by path order by path`,
      )
    ).rows,
  };
}

const kept = {
  events: ["evt_old_pending_kept", "evt_old_redelivered_kept", "evt_recent_kept"],
  deliveries: ["dlv_old_pending_kept", "dlv_recent_kept", "dlv_redelivery_kept"],
  attempts: ["dlv_old_pending_kept", "dlv_recent_kept", "dlv_redelivery_kept"],
  audit: [{ path: "kept", count: 2 }],
};

forEachDriver("retention", (driver) => {
  const storage = useStorage(driver);

  it("deletes what is older than the cutoff in batches, keeping pending deliveries and the events deliveries refer to", async () => {
    await seed(storage());
    const result = await deleteExpiredRecords(storage().db, { before: daysAgo(90), batchRows: 2 });
    expect(result).toEqual({ deliveries: 3, events: 3, auditRows: 8, complete: true });
    expect(await remaining(storage())).toEqual(kept);
    // Nothing more to do.
    expect(await deleteExpiredRecords(storage().db, { before: daysAgo(90) })).toEqual({
      deliveries: 0,
      events: 0,
      auditRows: 0,
      complete: true,
    });
  });

  it("stops at its deadline and carries on at the next run", async () => {
    await seed(storage());
    const stopped = await deleteExpiredRecords(storage().db, {
      before: daysAgo(90),
      batchRows: 2,
      deadline: Date.now() - 1,
    });
    expect(stopped).toEqual({ deliveries: 0, events: 0, auditRows: 0, complete: false });
    expect(await deleteExpiredRecords(storage().db, { before: daysAgo(90), batchRows: 2 })).toMatchObject({
      complete: true,
      auditRows: 8,
    });
    expect(await remaining(storage())).toEqual(kept);
  });

  it("finds the rows to delete through an index, not by reading the whole table", async () => {
    // The plans of the batches' inner selects; a sequential scan would read every row per batch.
    const plan = async (query: string) =>
      (await storage().db.execute<{ "QUERY PLAN": string }>(sql.raw(`explain (costs off) ${query}`))).rows
        .map((row) => row["QUERY PLAN"])
        .join("\n");
    await storage().db.execute(sql`set enable_seqscan = off`);
    try {
      expect(await plan(`select id from audit_log where occurred_at < now() limit 1000`)).toContain(
        "audit_log_occurred_at_idx",
      );
      expect(
        await plan(`select id from webhook_deliveries where created_at < now() and status <> 'pending' limit 1000`),
      ).toContain("webhook_deliveries_created_at_idx");
      expect(
        await plan(
          `select id from events where created_at < now() and not exists (select 1 from webhook_deliveries where event_id = events.id) limit 1000`,
        ),
      ).toMatch(
        /events_created_at_idx[\s\S]*webhook_deliveries_event_idx|webhook_deliveries_event_idx[\s\S]*events_created_at_idx/,
      );
    } finally {
      await storage().db.execute(sql`set enable_seqscan = on`);
    }
  });
});

forEachDriver("the retention job", (driver) => {
  it("is scheduled, and a run deletes what AUDIT_RETENTION_DAYS no longer keeps", async () => {
    const server = await startTestServer(driver, { workers: true });
    try {
      const schedules = await server.jobs.boss.getSchedules(queues.retention);
      expect(schedules.map((schedule) => schedule.cron)).toEqual(["*/10 * * * *"]);
      await seed(server.storage);
      await server.jobs.boss.send(queues.retention, {});
      const deadline = Date.now() + 20_000;
      // Until what is left is what must be kept: the job's statements commit one after another.
      for (;;) {
        const now = await remaining(server.storage);
        if (isDeepStrictEqual(now, kept) || Date.now() > deadline) {
          expect(now).toEqual(kept);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await server.stop();
    }
  }, 180_000);
});
