// Leases over the shared stores: fewer round trips for keys with high limits, never more requests
// than a window allows across replicas, exact for small limits, unmade requests given back on stop.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresDriver } from "../../../test/support/database.ts";
import type { PostgresStorage } from "../../storage/index.ts";
import {
  createKeyRateLimiter,
  createMemoryStore,
  createPostgresStore,
  createRedisStore,
  leaseSize,
  PLAN_LIMITS,
  type RateLimitStore,
} from "./index.ts";

/** A shared store (memory underneath) that counts its round trips, as a second replica sees it too. */
function countingStore(): RateLimitStore & { takes: number; given: number } {
  const memory = createMemoryStore();
  const store = {
    kind: "redis" as const,
    takes: 0,
    given: 0,
    async take(...args: Parameters<RateLimitStore["take"]>) {
      store.takes++;
      return memory.take(...args);
    },
    async giveBack(...args: Parameters<RateLimitStore["giveBack"]>) {
      store.given += args[2];
      return memory.giveBack(...args);
    },
    close: () => memory.close(),
  };
  return store;
}

describe("lease sizes", () => {
  it("are a tenth of a plan's burst, at least one request", () => {
    const size = (plan: keyof typeof PLAN_LIMITS) =>
      leaseSize([
        { name: "m", limit: PLAN_LIMITS[plan].perMinute, durationMs: 60_000 },
        { name: "s", limit: PLAN_LIMITS[plan].burst, durationMs: 1000 },
      ]);
    expect([size("free"), size("pro"), size("team"), size("enterprise")]).toEqual([1, 1, 3, 10]);
  });
});

describe("a leased limiter", () => {
  it("asks its store once a lease, not once a request", async () => {
    const store = countingStore();
    const limiter = createKeyRateLimiter({ store });
    for (let i = 0; i < 100; i++) expect((await limiter.consume("key_big", "enterprise")).allowed).toBe(true);
    expect(store.takes).toBe(10);
    await limiter.close();
  });

  it("reports what this replica made, not what it leased", async () => {
    const limiter = createKeyRateLimiter({ store: countingStore() });
    const first = await limiter.consume("key_big", "enterprise");
    expect(first.windows.map((window) => window.used)).toEqual([1, 1]);
    const second = await limiter.consume("key_big", "enterprise");
    expect(second.windows.map((window) => window.remaining)).toEqual([998, 98]);
    await limiter.close();
  });

  it("across two replicas never admits more than a window allows, and a free key's exactly its limit", async () => {
    const shared = createMemoryStore();
    const store = (): RateLimitStore => ({
      kind: "redis",
      take: shared.take,
      giveBack: shared.giveBack,
      close: async () => {},
    });
    for (const [plan, limit] of [
      ["free", 10],
      ["team", 30],
      ["enterprise", 100],
    ] as const) {
      const [a, b] = [createKeyRateLimiter({ store: store() }), createKeyRateLimiter({ store: store() })];
      let admitted = 0;
      for (let i = 0; i < 300; i++) if ((await (i % 3 === 0 ? a : b).consume(`key_${plan}`, plan)).allowed) admitted++;
      // The burst window (a second) binds: at most its limit; leases left unmade on one replica
      // can only make the other refuse early, by at most a lease less one.
      expect(admitted, plan).toBeLessThanOrEqual(limit);
      expect(admitted, plan).toBeGreaterThanOrEqual(limit - (leaseSize([{ name: "s", limit, durationMs: 1000 }]) - 1));
      if (plan === "free") expect(admitted).toBe(10);
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("takes one lease for concurrent requests of a key, then answers them from it", async () => {
    const store = countingStore();
    const limiter = createKeyRateLimiter({ store });
    const results = await Promise.all(Array.from({ length: 10 }, () => limiter.consume("key_big", "enterprise")));
    expect(results.every((result) => result.allowed)).toBe(true);
    expect(store.takes).toBe(1);
    await limiter.close();
  });

  it("remembers a refusal until the window resets: a key hammering past its limit costs no round trip", async () => {
    const store = countingStore();
    const limiter = createKeyRateLimiter({ store });
    for (let i = 0; i < 10; i++) await limiter.consume("key_free", "free");
    const before = store.takes;
    for (let i = 0; i < 50; i++) expect((await limiter.consume("key_free", "free")).allowed).toBe(false);
    expect(store.takes).toBe(before + 1);
    await limiter.close();
  });

  it("gives back, when it stops, what its leases did not make", async () => {
    const store = countingStore();
    const limiter = createKeyRateLimiter({ store });
    await limiter.consume("key_big", "enterprise");
    await limiter.close();
    expect(store.given).toBe(9);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("leases on PostgreSQL (TEST_DATABASE_URL)", () => {
  let storage: PostgresStorage;
  beforeAll(async () => {
    storage = (await postgresDriver.open()) as PostgresStorage;
  });
  afterAll(() => storage?.close());

  it("two replicas of an enterprise key: a statement per ten requests, never over the limit, leftovers given back", async () => {
    let statements = 0;
    const query = storage.pool.query.bind(storage.pool);
    const counting = Object.create(storage.pool, {
      query: { value: (...args: Parameters<typeof query>) => (statements++, query(...args)) },
    }) as typeof storage.pool;
    const prefix = `pbs:test:${randomUUID()}`;
    const a = createKeyRateLimiter({
      store: await createPostgresStore({ pool: counting, insurance: false }),
      keyPrefix: prefix,
    });
    const b = createKeyRateLimiter({
      store: await createPostgresStore({ pool: counting, insurance: false }),
      keyPrefix: prefix,
    });
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) => (i % 2 ? a : b).consume("key_pg", "enterprise")),
    );
    expect(answers.filter((answer) => answer.allowed).length).toBeLessThanOrEqual(100);
    expect(answers.filter((answer) => answer.allowed).length).toBeGreaterThanOrEqual(100 - 9);
    expect(statements).toBeLessThanOrEqual(Math.ceil(100 / 10) + 4);
    await a.close();
    const { rows } = await storage.pool.query<{ count: number }>(
      "select count from rate_limit_counters where key = $1",
      [`${prefix}:1s:key_pg`],
    );
    // What a's lease did not make is back (b's still counts until b stops).
    expect(rows[0]!.count).toBeLessThanOrEqual(answers.filter((answer) => answer.allowed).length + 10);
    await b.close();
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)("leases on Redis (TEST_REDIS_URL)", () => {
  it("grant what every window has room for and give back what was not made", async () => {
    const store = await createRedisStore({ url: process.env.TEST_REDIS_URL!, insurance: false });
    const windows = [
      { name: `pbs:test:${randomUUID()}:60s`, limit: 15, durationMs: 60_000 },
      { name: `pbs:test:${randomUUID()}:1s`, limit: 100, durationMs: 1000 },
    ];
    expect((await store.take("k", windows, 10)).granted).toBe(10);
    const second = await store.take("k", windows, 10);
    expect(second.granted).toBe(5);
    expect(second.windows.map((window) => window.count)).toEqual([15, 15]);
    expect((await store.take("k", windows, 10)).granted).toBe(0);
    await store.giveBack("k", windows, 4);
    expect((await store.take("k", windows, 10)).granted).toBe(4);
    await store.close();
  });
});
