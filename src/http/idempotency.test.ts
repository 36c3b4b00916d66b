import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { migratePglite } from "../storage/pglite.ts";
import { migratePool } from "../storage/postgres.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  IDEMPOTENCY_LOCK_TIMEOUT_MS,
  IDEMPOTENCY_WINDOW_MS,
  abandon,
  begin,
  canonicalJson,
  complete,
  renew,
  requestHash,
} from "./idempotency.ts";
import { purgeExpiredIdempotencyKeys } from "../domain/idempotency-keys.ts";
import type { AnyPgDatabase } from "../storage/index.ts";
import type { BeginInput, BeginResult, IdempotencyLease } from "./idempotency.ts";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

interface TestDatabase {
  readonly db: AnyPgDatabase;
  close(): Promise<void>;
}

/**
 * A fresh database with the storage layer's committed migrations applied: an in-memory PGlite, or
 * a throwaway database created on the TEST_DATABASE_URL server (dropped afterwards), so parallel
 * suites never share rows or race on migrations.
 */
async function openTestDatabase(driver: "pglite" | "postgres"): Promise<TestDatabase> {
  if (driver === "pglite") {
    const client = new PGlite();
    const db = drizzlePglite(client);
    await migratePglite(client);
    return { db, close: () => client.close() };
  }
  const name = `pbs_idem_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  // Several connections, so concurrent begin() calls really race inside PostgreSQL.
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
  const db = drizzlePg(pool);
  await migratePool(pool);
  return {
    db,
    async close() {
      await pool.end();
      // pool.end() resolves before the server has seen every connection go; retry until it has.
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.query(`DROP DATABASE IF EXISTS ${name}`);
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== "55006" || attempt >= 50) throw err;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      await admin.end();
    },
  };
}

describe("requestHash", () => {
  it("ignores key order and whitespace of a JSON body", () => {
    const a = requestHash({
      method: "POST",
      path: "/v1/projects",
      body: { name: "x", prompt: "y", nested: { b: 1, a: [1, { d: 2, c: 3 }] } },
    });
    const b = requestHash({
      method: "post",
      path: "/v1/projects",
      body: JSON.parse('{ "nested": {"a":[1,{"c":3,"d":2}], "b":1}, "prompt":"y","name":"x"}'),
    });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it("differs when method, path or body differ", () => {
    const base = { method: "POST", path: "/v1/projects", body: { name: "x" } };
    const h = requestHash(base);
    expect(requestHash({ ...base, method: "PUT" })).not.toBe(h);
    expect(requestHash({ ...base, path: "/v1/projects/prj_1/runs" })).not.toBe(h);
    expect(requestHash({ ...base, body: { name: "y" } })).not.toBe(h);
    expect(requestHash({ ...base, body: { name: "x", agent: "coding-agent-1" } })).not.toBe(h);
    expect(requestHash({ ...base, body: undefined })).not.toBe(h);
    expect(requestHash({ ...base, body: Buffer.from('{"name":"x"}') })).not.toBe(h);
  });

  it("hashes raw bytes as they are", () => {
    const x = requestHash({ method: "POST", path: "/f", body: Buffer.from([1, 2, 3]) });
    expect(requestHash({ method: "POST", path: "/f", body: new Uint8Array([1, 2, 3]) })).toBe(x);
    expect(requestHash({ method: "POST", path: "/f", body: Buffer.from([1, 2, 4]) })).not.toBe(x);
  });

  it("canonicalJson sorts keys at every depth and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: undefined, c: [2, 1] } })).toBe('{"a":{"c":[2,1]},"b":1}');
    expect(canonicalJson(null)).toBe("null");
  });
});

function suite(driver: "pglite" | "postgres") {
  let tdb: TestDatabase;
  let db: AnyPgDatabase;
  beforeAll(async () => {
    tdb = await openTestDatabase(driver);
    db = tdb.db;
  });
  afterAll(async () => {
    await tdb?.close();
  });

  const input = (over: Partial<BeginInput> = {}): BeginInput => {
    const body = { name: "demo", prompt: "a todo app" };
    const method = over.method ?? "POST";
    const path = over.path ?? "/v1/projects";
    return {
      workspaceId: "ws_1",
      environment: "live",
      key: randomUUID(),
      method,
      path,
      requestHash: requestHash({ method, path, body }),
      ...over,
    };
  };
  const leaseOf = (r: BeginResult): IdempotencyLease => {
    if (r.kind !== "new") throw new Error(`expected new, got ${r.kind}`);
    return r.lease;
  };

  it("first use is new; after completion the same request replays the stored response", async () => {
    const req = input();
    const lease = leaseOf(await begin(db, req));
    const body = { id: "prj_1", name: "demo", nested: { list: [1, 2], flag: true } };
    expect(await complete(db, lease, { status: 201, headers: { Location: "/v1/projects/prj_1" }, body })).toBe(true);
    const again = await begin(db, req);
    expect(again).toEqual({
      kind: "replay",
      requestHash: req.requestHash,
      status: 201,
      headers: { Location: "/v1/projects/prj_1" },
      body,
    });
    // And again: replays do not consume the record.
    expect((await begin(db, req)).kind).toBe("replay");
  });

  it("same key with a different body, path or method is a mismatch", async () => {
    const req = input();
    await complete(db, leaseOf(await begin(db, req)), { status: 201, headers: {}, body: { id: "prj_2" } });
    const otherBody = {
      ...req,
      requestHash: requestHash({ method: "POST", path: "/v1/projects", body: { name: "other" } }),
    };
    expect(await begin(db, otherBody)).toEqual({ kind: "mismatch" });
    expect(await begin(db, { ...req, path: "/v1/deployments" })).toEqual({ kind: "mismatch" });
    expect(await begin(db, { ...req, method: "PUT" })).toEqual({ kind: "mismatch" });
    // A mismatch is reported even while the first request is still running.
    const running = input();
    leaseOf(await begin(db, running));
    expect(await begin(db, { ...running, requestHash: "0".repeat(64) })).toEqual({ kind: "mismatch" });
  });

  it("a retry while the first is still running is in_use", async () => {
    const req = input();
    leaseOf(await begin(db, req));
    expect(await begin(db, req)).toEqual({ kind: "in_use" });
  });

  it("10 concurrent begin() with one key: exactly one is new", async () => {
    const req = input();
    const results = await Promise.all(Array.from({ length: 10 }, () => begin(db, req)));
    expect(results.filter((r) => r.kind === "new")).toHaveLength(1);
    expect(results.filter((r) => r.kind === "in_use")).toHaveLength(9);
  });

  it("10 concurrent begin() on an expired key: still exactly one is new", async () => {
    const t0 = Date.now();
    const req = input();
    await complete(
      db,
      leaseOf(await begin(db, req, { now: () => t0 })),
      { status: 201, headers: {}, body: {} },
      { now: () => t0 },
    );
    const later = () => t0 + IDEMPOTENCY_WINDOW_MS + 1;
    const results = await Promise.all(Array.from({ length: 10 }, () => begin(db, req, { now: later })));
    expect(results.filter((r) => r.kind === "new")).toHaveLength(1);
  });

  it("keys are scoped to workspace and environment", async () => {
    const req = input();
    leaseOf(await begin(db, req));
    expect((await begin(db, { ...req, environment: "test" })).kind).toBe("new");
    expect((await begin(db, { ...req, workspaceId: "ws_2" })).kind).toBe("new");
  });

  it("after 24 hours the key is free again; purgeExpiredIdempotencyKeys removes the record", async () => {
    const t0 = Date.now();
    const req = input();
    const lease = leaseOf(await begin(db, req, { now: () => t0 }));
    await complete(db, lease, { status: 201, headers: {}, body: { id: "prj_3" } });
    expect((await begin(db, req, { now: () => t0 + IDEMPOTENCY_WINDOW_MS - 1000 })).kind).toBe("replay");
    // Past the window: treated as absent, even before any purge ran.
    expect(
      (await begin(db, { ...req, requestHash: "f".repeat(64) }, { now: () => t0 + IDEMPOTENCY_WINDOW_MS + 1 })).kind,
    ).toBe("new");

    const other = input();
    await complete(db, leaseOf(await begin(db, other, { now: () => t0 })), { status: 201, headers: {}, body: {} });
    const fresh = input();
    await complete(db, leaseOf(await begin(db, fresh, { now: () => t0 + 1000 })), {
      status: 201,
      headers: {},
      body: {},
    });
    const purged = await purgeExpiredIdempotencyKeys(db, { now: () => t0 + IDEMPOTENCY_WINDOW_MS + 500 });
    expect(purged).toBeGreaterThanOrEqual(1);
    // `other` is gone (new again), `fresh` is still inside its window.
    expect((await begin(db, fresh, { now: () => t0 + IDEMPOTENCY_WINDOW_MS + 500 })).kind).toBe("replay");
    expect((await begin(db, other, { now: () => t0 + IDEMPOTENCY_WINDOW_MS + 500 })).kind).toBe("new");
  });

  it("purgeExpiredIdempotencyKeys works in bounded batches", async () => {
    const t0 = Date.now() - 2 * IDEMPOTENCY_WINDOW_MS;
    for (let i = 0; i < 5; i++) {
      await complete(db, leaseOf(await begin(db, input({ workspaceId: "ws_purge" }), { now: () => t0 })), {
        status: 201,
        headers: {},
        body: {},
      });
    }
    const first = await purgeExpiredIdempotencyKeys(db, { limit: 2 });
    expect(first).toBe(2);
    let total = first;
    for (;;) {
      const n = await purgeExpiredIdempotencyKeys(db, { limit: 2 });
      total += n;
      if (n < 2) break;
    }
    expect(total).toBeGreaterThanOrEqual(5);
    expect(await purgeExpiredIdempotencyKeys(db)).toBe(0);
  });

  it("a stale in_progress row (crashed replica) frees the key after the lock timeout, and the old lease is fenced", async () => {
    const t0 = Date.now();
    const req = input();
    const crashed = leaseOf(await begin(db, req, { now: () => t0 }));
    expect((await begin(db, req, { now: () => t0 + IDEMPOTENCY_LOCK_TIMEOUT_MS - 1 })).kind).toBe("in_use");
    const takeover = leaseOf(await begin(db, req, { now: () => t0 + IDEMPOTENCY_LOCK_TIMEOUT_MS + 1 }));
    // The crashed request's late completion or release must not touch its successor's row.
    expect(await complete(db, crashed, { status: 201, headers: {}, body: { id: "stale" } })).toBe(false);
    expect(await abandon(db, crashed)).toBe(false);
    expect(await complete(db, takeover, { status: 201, headers: {}, body: { id: "winner" } })).toBe(true);
    const replay = await begin(db, req, { now: () => t0 + IDEMPOTENCY_LOCK_TIMEOUT_MS + 2 });
    expect(replay).toMatchObject({ kind: "replay", body: { id: "winner" } });
  });

  it("the lock timeout is configurable", async () => {
    const t0 = Date.now();
    const req = input();
    leaseOf(await begin(db, req, { now: () => t0, lockTimeoutMs: 5_000 }));
    expect((await begin(db, req, { now: () => t0 + 5_001, lockTimeoutMs: 5_000 })).kind).toBe("new");
  });

  it("abandon releases the key so a retry can proceed", async () => {
    const req = input();
    const lease = leaseOf(await begin(db, req));
    expect(await abandon(db, lease)).toBe(true);
    expect((await begin(db, req)).kind).toBe("new");
  });

  it("renew keeps a long request's claim past the lock timeout; a renewal after completion changes nothing", async () => {
    const t0 = Date.now();
    const req = input();
    const lease = leaseOf(await begin(db, req, { now: () => t0 }));
    expect(await renew(db, lease, { now: () => t0 + IDEMPOTENCY_LOCK_TIMEOUT_MS - 1 })).toBe(true);
    expect((await begin(db, req, { now: () => t0 + IDEMPOTENCY_LOCK_TIMEOUT_MS + 1 })).kind).toBe("in_use");
    expect((await begin(db, req, { now: () => t0 + 2 * IDEMPOTENCY_LOCK_TIMEOUT_MS })).kind).toBe("new");
    // The successor completes; the first request's late renewal is fenced out.
    expect(await renew(db, lease, { now: () => t0 + 2 * IDEMPOTENCY_LOCK_TIMEOUT_MS + 1 })).toBe(false);
  });

  it("a claim taken before the body is read (requestHash null) records the real hash on completion", async () => {
    const req = input({ requestHash: null });
    const lease = leaseOf(await begin(db, req));
    // Another request with the key while the first runs: in use, whatever its body.
    expect((await begin(db, { ...req, requestHash: "other" })).kind).toBe("in_use");
    expect(
      await complete(db, lease, { status: 201, headers: {}, body: { id: "file_1" } }, { requestHash: "read" }),
    ).toBe(true);
    // A later request that has not read its body yet gets the stored hash to compare with its own…
    expect(await begin(db, req)).toMatchObject({ kind: "replay", requestHash: "read", body: { id: "file_1" } });
    // …and one that knows its hash is told at once.
    expect((await begin(db, { ...req, requestHash: "other" })).kind).toBe("mismatch");
    expect((await begin(db, { ...req, requestHash: "read" })).kind).toBe("replay");
  });

  it("stores bodies that are not objects", async () => {
    const req = input();
    await complete(db, leaseOf(await begin(db, req)), { status: 202, headers: {}, body: null });
    expect(await begin(db, req)).toMatchObject({ kind: "replay", status: 202, body: null });
    const arr = input();
    await complete(db, leaseOf(await begin(db, arr)), { status: 200, headers: {}, body: [1, "two"] });
    expect(await begin(db, arr)).toMatchObject({ kind: "replay", body: [1, "two"] });
  });
}

describe("idempotency on PGlite", () => suite("pglite"));
describe.skipIf(!TEST_DATABASE_URL)("idempotency on PostgreSQL (TEST_DATABASE_URL)", () => suite("postgres"));
