import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { onEmbeddedDatabase, useStorage } from "../../test/support/database.ts";
import { createLogger } from "../logger.ts";
import type { Database } from "../storage/index.ts";
import { auditLog } from "../storage/schema.ts";
import { createAuditWriter, insertAuditRows, type AuditEntry } from "./audit.ts";

const silent = createLogger({ level: "silent" });

function entry(i: number): AuditEntry {
  return {
    occurredAt: new Date(Date.UTC(2026, 10, 24, 12, 0, 0, i)),
    requestId: `req_${String(i).padStart(8, "0")}`,
    workspaceId: i % 2 ? `ws_${i}` : null,
    keyId: null,
    clientId: null,
    method: "GET",
    route: null,
    path: `/v1/nowhere/${i}`,
    status: 404,
    ip: "127.0.0.1",
    userAgent: null,
    latencyMs: 1,
  };
}

const noDatabase = {} as Database;

onEmbeddedDatabase("audit writer", (driver) => {
  const storage = useStorage(driver);

  it("writes every row, many per statement, and flush waits for them", async () => {
    const { db } = storage();
    let inserts = 0;
    const audit = createAuditWriter(db, silent, {
      batchSize: 100,
      write: (rows) => (inserts++, insertAuditRows(db, rows)),
    });
    for (let i = 0; i < 1050; i++) audit.record(entry(i));
    await audit.flush();
    const [{ rows }] = (await db.select({ rows: count() }).from(auditLog)) as [{ rows: number }];
    expect(rows).toBe(1050);
    expect(inserts).toBe(11);
    // Every column arrives, nulls and the time of the request included.
    const [first] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.requestId, entry(7).requestId));
    const { occurredAt, ...expected } = entry(7);
    expect(first).toMatchObject(expected);
    expect(first!.occurredAt.getTime()).toBe(occurredAt!.getTime());
  });

  it("a lone row is written within moments, without a flush", async () => {
    const { db } = storage();
    const audit = createAuditWriter(db, silent);
    audit.record(entry(1));
    const deadline = Date.now() + 2000;
    while ((await db.select().from(auditLog)).length === 0) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
});

describe("audit writer under pressure", () => {
  it("makes new requests wait while the queue is full, and lets them in as it drains", async () => {
    const written: AuditEntry[] = [];
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const audit = createAuditWriter(noDatabase, silent, {
      batchSize: 5,
      maxQueued: 10,
      async write(rows) {
        await blocked;
        written.push(...rows);
      },
    });
    for (let i = 0; i < 15; i++) audit.record(entry(i)); // 5 being written, 10 queued
    const room = audit.admit();
    expect(room).toBeInstanceOf(Promise);
    let admitted = false;
    void room!.then(() => (admitted = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(admitted).toBe(false);
    release();
    await room;
    await audit.flush();
    expect(written.map((row) => row.requestId)).toEqual(Array.from({ length: 15 }, (_, i) => entry(i).requestId));
    expect(audit.admit()).toBeUndefined();
  });

  it("retries a batch that failed, keeping every row and their order", async () => {
    const written: AuditEntry[] = [];
    let failures = 2;
    const audit = createAuditWriter(noDatabase, silent, {
      batchSize: 3,
      async write(rows) {
        if (failures-- > 0) throw new Error("connection reset");
        written.push(...rows);
      },
    });
    for (let i = 0; i < 7; i++) audit.record(entry(i));
    await audit.flush();
    expect(written.map((row) => row.requestId)).toEqual(Array.from({ length: 7 }, (_, i) => entry(i).requestId));
  });

  const unreachable = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

  it("keeps the rows of a database outage, however long, and writes them when it returns", async () => {
    const written: AuditEntry[] = [];
    let failures = 12; // far more than a batch that fails for another reason gets
    const audit = createAuditWriter(noDatabase, silent, {
      batchSize: 3,
      retryDelaysMs: [1, 2, 5],
      async write(rows) {
        if (failures-- > 0) throw new Error("Failed query: insert into audit_log …", { cause: unreachable() });
        written.push(...rows);
      },
    });
    for (let i = 0; i < 7; i++) audit.record(entry(i));
    await audit.flush();
    expect(failures).toBeLessThan(0);
    expect(written.map((row) => row.requestId)).toEqual(Array.from({ length: 7 }, (_, i) => entry(i).requestId));
  });

  it("gives up a batch failing for another reason after a few attempts, and goes on with the next", async () => {
    const written: AuditEntry[] = [];
    const audit = createAuditWriter(noDatabase, silent, {
      batchSize: 2,
      retryDelaysMs: [1],
      async write(rows) {
        if (rows.some((row) => row.requestId === entry(0).requestId))
          throw new Error("value too long for type character varying");
        written.push(...rows);
      },
    });
    for (let i = 0; i < 4; i++) audit.record(entry(i));
    await audit.flush();
    expect(written.map((row) => row.requestId)).toEqual([entry(2).requestId, entry(3).requestId]);
  });

  it("with the queue full during an outage, refuses new requests at once instead of making them wait", async () => {
    let down = true;
    const audit = createAuditWriter(noDatabase, silent, {
      batchSize: 5,
      maxQueued: 10,
      retryDelaysMs: [5],
      async write() {
        if (down) throw unreachable();
      },
    });
    const waiting = (() => {
      for (let i = 0; i < 15; i++) audit.record(entry(i)); // 5 being written, 10 queued
      return audit.admit();
    })();
    expect(await waiting).toBe(false); // the writer found the database down
    expect(await audit.admit()).toBe(false);
    down = false;
    await audit.flush();
    expect(audit.admit()).toBeUndefined();
  });

  it("at a stop, gives up what it still cannot write once the deadline passes", async () => {
    const audit = createAuditWriter(noDatabase, silent, {
      retryDelaysMs: [20],
      async write() {
        throw unreachable();
      },
    });
    audit.record(entry(1));
    const started = Date.now();
    await audit.close(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
