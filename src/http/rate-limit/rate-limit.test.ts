import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { postgresDriver } from "../../../test/support/database.ts";
import type { PostgresStorage } from "../../storage/index.ts";
import {
  PLAN_LIMITS,
  createKeyRateLimiter,
  createMemoryStore,
  createPostgresStore,
  createRedisStore,
  rateLimitHeaders,
  selectRateLimitStore,
} from "./index.ts";
import type { KeyRateLimiter, Plan, RateLimitResult } from "./index.ts";
import { plans as storagePlans } from "../../storage/schema.ts";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL;
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

async function fire(limiter: KeyRateLimiter, key: string, n: number, plan?: string): Promise<RateLimitResult[]> {
  const out: RateLimitResult[] = [];
  for (let i = 0; i < n; i++) out.push(await limiter.consume(key, plan));
  return out;
}

describe("plan table", () => {
  it("covers exactly the plans the storage schema knows", () => {
    expect(Object.keys(PLAN_LIMITS).sort()).toEqual([...storagePlans].sort());
    // Type-level: the two Plan unions are the same.
    const fromStorage: Plan[] = [...storagePlans];
    expect(fromStorage).toHaveLength(4);
  });

  it("has the published figures", () => {
    expect(PLAN_LIMITS).toEqual({
      free: { perMinute: 60, burst: 10 },
      pro: { perMinute: 60, burst: 10 },
      team: { perMinute: 300, burst: 30 },
      enterprise: { perMinute: 1000, burst: 100 },
    });
  });
});

describe("rate limiter (memory store, fake clock)", () => {
  const T0 = Date.UTC(2030, 0, 1, 0, 0, 0, 0);
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets 10 quick requests through and refuses the 11th in the same second with Retry-After", async () => {
    const limiter = createKeyRateLimiter();
    const results = await fire(limiter, "key_a", 11);
    expect(results.slice(0, 10).every((r) => r.allowed)).toBe(true);
    expect(results.slice(0, 10).map((r) => r.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const refused = results[10]!;
    expect(refused.allowed).toBe(false);
    expect(refused.policy).toBe("burst");
    expect(refused.retryAfterSeconds).toBe(1);
    const h = rateLimitHeaders(refused);
    expect(h["Retry-After"]).toBe("1");
    // The X-RateLimit-* fields describe the minute, whichever window refused.
    expect(h["X-RateLimit-Limit"]).toBe("60");
    expect(h["X-RateLimit-Remaining"]).toBe("50");
    expect(h["X-RateLimit-Used"]).toBe("10");
    expect(h["X-RateLimit-Reset"]).toBe(String(T0 / 1000 + 60));
    expect(h["RateLimit-Policy"]).toBe('"default";q=60;w=60, "burst";q=10;w=1');
    // The refused request was refunded in the minute window: 10 spent, 50 left.
    expect(h["RateLimit"]).toBe('"default";r=50;t=60, "burst";r=0;t=1');
  });

  it("allowed responses carry the headers and no Retry-After", async () => {
    const limiter = createKeyRateLimiter();
    const [first] = await fire(limiter, "key_h", 1);
    const h = rateLimitHeaders(first!);
    expect(h["Retry-After"]).toBeUndefined();
    expect(h["RateLimit"]).toBe('"default";r=59;t=60, "burst";r=9;t=1');
    expect([h["X-RateLimit-Limit"], h["X-RateLimit-Remaining"], h["X-RateLimit-Used"]]).toEqual(["60", "59", "1"]);
    expect(first!.retryAfterSeconds).toBeNull();
  });

  it("after the second passes, requests flow again", async () => {
    const limiter = createKeyRateLimiter();
    await fire(limiter, "key_b", 12);
    vi.advanceTimersByTime(1000);
    const [next] = await fire(limiter, "key_b", 1);
    expect(next!.allowed).toBe(true);
  });

  it("over a minute of hammering no more than 60 pass, at most 10 in any second, and the next minute opens", async () => {
    const limiter = createKeyRateLimiter();
    let allowedInMinute = 0;
    let lastRefusal: RateLimitResult | undefined;
    for (let second = 0; second < 60; second++) {
      vi.setSystemTime(T0 + second * 1000);
      let allowedThisSecond = 0;
      for (let i = 0; i < 25; i++) {
        const r = await limiter.consume("key_c");
        if (r.allowed) allowedThisSecond++;
        else {
          lastRefusal = r;
          expect(r.retryAfterSeconds).toBeGreaterThanOrEqual(1);
          expect(rateLimitHeaders(r)["Retry-After"]).toMatch(/^[1-9]\d*$/);
        }
        vi.advanceTimersByTime(39); // 25 × 39 ms = 975 ms: all inside this second
      }
      expect(allowedThisSecond).toBeLessThanOrEqual(10);
      allowedInMinute += allowedThisSecond;
    }
    expect(allowedInMinute).toBe(60);
    // In the last second the minute window is what refuses, and it says when it reopens.
    expect(lastRefusal!.policy).toBe("default");
    expect(lastRefusal!.resetAt).toBe(T0 / 1000 + 60);
    expect(lastRefusal!.retryAfterSeconds).toBe(1);
    vi.advanceTimersByTime(60_000 - 59_975);
    const reopened = await limiter.consume("key_c");
    expect(reopened.allowed).toBe(true);
    expect(reopened.windows[0]!.remaining).toBe(59);
  });

  it("refused requests do not consume the minute quota", async () => {
    const limiter = createKeyRateLimiter();
    // 6 seconds of 100 attempts each: 10 served per second, 60 in total.
    let served = 0;
    for (let s = 0; s < 6; s++) {
      served += (await fire(limiter, "key_d", 100)).filter((r) => r.allowed).length;
      vi.advanceTimersByTime(1000);
    }
    expect(served).toBe(60);
  });

  it("keys are independent", async () => {
    const limiter = createKeyRateLimiter();
    const a = await fire(limiter, "key_x", 11);
    expect(a[10]!.allowed).toBe(false);
    const b = await fire(limiter, "key_y", 10);
    expect(b.every((r) => r.allowed)).toBe(true);
  });

  it("applies per-plan figures; unknown plans get the free figures", async () => {
    const limiter = createKeyRateLimiter();
    const team = await fire(limiter, "key_team", 31, "team");
    expect(team.filter((r) => r.allowed)).toHaveLength(30);
    expect(team[0]!.windows.map((w) => w.limit)).toEqual([300, 30]);
    expect(rateLimitHeaders(team[0]!)["RateLimit-Policy"]).toBe('"default";q=300;w=60, "burst";q=30;w=1');
    const ent = await fire(limiter, "key_ent", 101, "enterprise");
    expect(ent.filter((r) => r.allowed)).toHaveLength(100);
    const odd = await fire(limiter, "key_odd", 11, "platinum");
    expect(odd.filter((r) => r.allowed)).toHaveLength(10);
    expect(odd[0]!.plan).toBe("free");
    expect(limiter.policyHeader("enterprise")).toBe('"default";q=1000;w=60, "burst";q=100;w=1');
  });

  it("reports the binding window: the minute once it has fewer left than the burst", async () => {
    const limiter = createKeyRateLimiter();
    for (let s = 0; s < 5; s++) {
      await fire(limiter, "key_bind", 10);
      vi.advanceTimersByTime(1000);
    }
    // 50 spent; 10 left in the minute and 10 in the new second: tie goes to the later reset.
    vi.advanceTimersByTime(100);
    const r = await limiter.consume("key_bind");
    expect(r.allowed).toBe(true);
    expect(r.policy).toBe("default");
    expect(r.limit).toBe(60);
    expect(r.remaining).toBe(9);
    expect(r.resetAt).toBe(T0 / 1000 + 60);
  });
});

describe("rate limiter (injectable short windows, real clock)", () => {
  it("a 1-second 'minute' with a 0.1-second burst: never more than the quota per long window", async () => {
    const limiter = createKeyRateLimiter({
      windows: { longSeconds: 1, shortSeconds: 0.1 },
      plans: { ...PLAN_LIMITS, free: { perMinute: 20, burst: 5 } },
    });
    const start = Date.now();
    let allowed = 0;
    let refusedBurst = 0;
    // Hammer for 0.9 s: within the first long window.
    while (Date.now() - start < 900) {
      const r = await limiter.consume("short_key");
      if (r.allowed) allowed++;
      else if (r.policy === "burst") refusedBurst++;
      await new Promise((res) => setTimeout(res, 2));
    }
    expect(allowed).toBeLessThanOrEqual(20);
    expect(allowed).toBeGreaterThanOrEqual(10); // the burst window reopened at least once
    expect(refusedBurst).toBeGreaterThan(0);
  });

  it("rejects nonsensical windows", () => {
    expect(() => createKeyRateLimiter({ windows: { longSeconds: 1, shortSeconds: 1 } })).toThrow();
  });
});

describe("store selection", () => {
  it("defaults to memory", async () => {
    const store = await selectRateLimitStore({});
    expect(store.kind).toBe("memory");
    await store.close();
  });
});

describe.skipIf(!TEST_REDIS_URL)("rate limiter on Redis (TEST_REDIS_URL)", () => {
  it("two limiter instances share state through Redis", async () => {
    const prefix = `pbs:test:${randomUUID()}`;
    const a = createKeyRateLimiter({ store: await createRedisStore({ url: TEST_REDIS_URL! }), keyPrefix: prefix });
    const b = createKeyRateLimiter({ store: await createRedisStore({ url: TEST_REDIS_URL! }), keyPrefix: prefix });
    try {
      expect(a.store.kind).toBe("redis");
      const fromA = await fire(a, "shared_key", 6);
      const fromB = await fire(b, "shared_key", 5);
      const all = [...fromA, ...fromB];
      // Unless the 1-second window rolled over between calls, the 11th overall is refused.
      const allowed = all.filter((r) => r.allowed).length;
      expect(allowed).toBeLessThanOrEqual(10);
      expect(allowed).toBeGreaterThanOrEqual(5);
      // The minute window counts across both instances: 'a' sees what 'b' spent.
      const probe = await a.consume("shared_key");
      const minute = probe.windows.find((w) => w.policy === "default")!;
      expect(60 - minute.remaining).toBe(allowed + (probe.allowed ? 1 : 0));
      // Another key is untouched.
      expect((await b.consume("other_key")).allowed).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("refuses with Retry-After when the burst is spent across instances", async () => {
    const prefix = `pbs:test:${randomUUID()}`;
    const a = createKeyRateLimiter({
      store: await createRedisStore({ url: TEST_REDIS_URL! }),
      keyPrefix: prefix,
      plans: { ...PLAN_LIMITS, free: { perMinute: 3, burst: 3 } },
    });
    const b = createKeyRateLimiter({
      store: await createRedisStore({ url: TEST_REDIS_URL! }),
      keyPrefix: prefix,
      plans: { ...PLAN_LIMITS, free: { perMinute: 3, burst: 3 } },
    });
    try {
      await fire(a, "k", 3);
      const r = await b.consume("k");
      expect(r.allowed).toBe(false);
      expect(Number(rateLimitHeaders(r)["Retry-After"])).toBeGreaterThanOrEqual(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)("rate limiter on Postgres (TEST_DATABASE_URL)", () => {
  // A database migrated by this server: the counters and their function come from migration 0006.
  let storage: PostgresStorage;
  beforeAll(async () => {
    storage = (await postgresDriver.open()) as PostgresStorage;
  });
  afterAll(async () => {
    await storage?.close();
  });

  it("two limiter instances share state through the database", async () => {
    const prefix = `pbs:test:${randomUUID()}`;
    const plans = { ...PLAN_LIMITS, free: { perMinute: 4, burst: 4 } };
    const sa = await createPostgresStore({ pool: storage.pool });
    const sb = await createPostgresStore({ pool: storage.pool });
    const a = createKeyRateLimiter({ store: sa, keyPrefix: prefix, plans });
    const b = createKeyRateLimiter({ store: sb, keyPrefix: prefix, plans });
    try {
      expect(sa.kind).toBe("postgres");
      await fire(a, "pg_key", 4);
      const r = await b.consume("pg_key");
      expect(r.allowed).toBe(false);
      expect(r.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect((await b.consume("pg_other")).allowed).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("one statement per request, allowed or refused", async () => {
    const statements: string[] = [];
    const query = storage.pool.query.bind(storage.pool);
    const counting = Object.create(storage.pool, {
      query: {
        value: (...args: Parameters<typeof query>) => (
          statements.push(String((args[0] as { text?: string }).text ?? args[0])),
          query(...args)
        ),
      },
    }) as typeof storage.pool;
    const limiter = createKeyRateLimiter({
      store: await createPostgresStore({ pool: counting }),
      keyPrefix: `pbs:test:${randomUUID()}`,
    });
    const results = await fire(limiter, "k", 11);
    expect(results.map((r) => r.allowed)).toEqual([...Array(10).fill(true), false]);
    expect(statements).toHaveLength(11);
    // The refusal is remembered until the window resets: asking again costs nothing.
    expect((await limiter.consume("k")).allowed).toBe(false);
    expect(statements).toHaveLength(11);
    await limiter.close();
  });

  it("a key past its limit is refused from memory until its window resets; a plan change asks again", async () => {
    let statements = 0;
    const query = storage.pool.query.bind(storage.pool);
    const counting = Object.create(storage.pool, {
      query: { value: (...args: Parameters<typeof query>) => (statements++, query(...args)) },
    }) as typeof storage.pool;
    const plans = { ...PLAN_LIMITS, free: { perMinute: 3, burst: 1000 } };
    const limiter = createKeyRateLimiter({
      store: await createPostgresStore({ pool: counting }),
      keyPrefix: `pbs:test:${randomUUID()}`,
      plans,
      windows: { longSeconds: 1, shortSeconds: 0.5 },
    });
    const results = await fire(limiter, "hot", 6, "free");
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false, false]);
    expect(statements).toBe(4);
    // Remembered refusals report the same window as the store did.
    expect(results[5]!.retryAfterSeconds).toBe(1);
    expect(results[5]!.windows[0]!.remaining).toBe(0);
    expect((await limiter.consume("hot", "enterprise")).allowed).toBe(true);
    expect(statements).toBe(5);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await limiter.consume("hot", "free")).allowed).toBe(true);
    expect(statements).toBe(6);
    await limiter.close();
  });

  it("many concurrent requests of one key never let more than the quota through, and refusals cost nothing", async () => {
    const plans = { ...PLAN_LIMITS, free: { perMinute: 25, burst: 1000 } };
    const limiter = createKeyRateLimiter({
      store: await createPostgresStore({ pool: storage.pool }),
      keyPrefix: `pbs:test:${randomUUID()}`,
      plans,
    });
    const results = await Promise.all(Array.from({ length: 80 }, () => limiter.consume("busy")));
    expect(results.filter((r) => r.allowed)).toHaveLength(25);
    // The refused 55 were not counted in the burst window either.
    const burst = (await limiter.consume("busy")).windows.find((w) => w.policy === "burst")!;
    expect(burst.limit - burst.remaining).toBe(25);
    await limiter.close();
  });

  it("counts in memory while the database cannot answer, and says so once", async () => {
    const errors: Error[] = [];
    const store = await createPostgresStore({
      connectionString: "postgres://postgres@127.0.0.1:1/none",
      onError: (e) => errors.push(e),
    });
    const limiter = createKeyRateLimiter({ store });
    try {
      const results = await fire(limiter, "k", 11);
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
      expect(results[10]!.allowed).toBe(false);
      expect(errors).toHaveLength(1);
    } finally {
      await limiter.close();
    }
  });
});

describe.skipIf(!TEST_REDIS_URL)("rate limiter on Redis: round trips and concurrency", () => {
  it("one script call per lease, and concurrent requests never pass the quota", async () => {
    const { Redis } = await import("ioredis");
    const client = new Redis(TEST_REDIS_URL!);
    const calls: string[] = [];
    const send = client.sendCommand.bind(client);
    client.sendCommand = (command: { name: string }) => (calls.push(command.name), send(command as never));
    const plans = { ...PLAN_LIMITS, free: { perMinute: 25, burst: 1000 } };
    const limiter = createKeyRateLimiter({
      store: await createRedisStore({ client }),
      keyPrefix: `pbs:test:${randomUUID()}`,
      plans,
    });
    try {
      calls.length = 0;
      const results = await Promise.all(Array.from({ length: 80 }, () => limiter.consume("busy")));
      expect(results.filter((r) => r.allowed)).toHaveLength(25);
      expect(calls.filter((name) => name !== "evalsha" && name !== "eval")).toEqual([]);
      // Leases of 2 (a tenth of 25): 13 takes grant the 25, one more learns the window is full.
      expect(calls.filter((name) => name === "evalsha")).toHaveLength(Math.ceil(25 / 2) + 1);
    } finally {
      await limiter.close();
      await client.quit();
    }
  });
});

describe("Redis store unreachable", () => {
  it("falls back to per-process counting at once instead of failing", async () => {
    const errors: Error[] = [];
    const store = await createRedisStore({
      url: "redis://127.0.0.1:1",
      readyTimeoutMs: 200,
      onError: (e) => errors.push(e),
    });
    const limiter = createKeyRateLimiter({ store });
    try {
      const started = Date.now();
      const results = await fire(limiter, "k", 11);
      expect(Date.now() - started).toBeLessThan(500);
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
      expect(results[10]!.allowed).toBe(false);
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      await limiter.close();
    }
  });
});

describe("memory store is per instance", () => {
  it("two memory stores do not share counts", async () => {
    const a = createKeyRateLimiter({ store: createMemoryStore() });
    const b = createKeyRateLimiter({ store: createMemoryStore() });
    await fire(a, "k", 10);
    expect((await b.consume("k")).allowed).toBe(true);
    expect((await a.consume("k")).allowed).toBe(false);
  });
});
