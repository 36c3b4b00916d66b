// A Redis outage, made by cutting (then silencing) a TCP proxy of the test's own between the server
// and the machine's Redis: rate limiting degrades to counting in the process's memory, as docs/operations.md
// documents, instead of failing requests; the limits still hold (per process); and once Redis is
// back the counters are Redis's again. A Redis that goes silent costs a request half a second at
// most, once a second, not every request.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisStore, PLAN_LIMITS } from "../src/http/rate-limit/index.ts";
import { expectStatus } from "./support/api-client.ts";
import { pgliteDriver } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.ts";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL?.trim() || undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!TEST_REDIS_URL)(`a Redis outage${TEST_REDIS_URL ? "" : " (skipped: set TEST_REDIS_URL)"}`, () => {
  let proxy: TcpProxy;
  let server: TestServer;
  let redis: Redis;
  beforeAll(async () => {
    proxy = await startTcpProxy(TEST_REDIS_URL!);
    const store = await createRedisStore({ url: proxy.url(TEST_REDIS_URL!) });
    expect(store.kind).toBe("redis");
    // A three-second burst window, so that 11 requests fall in one window on a loaded machine too.
    server = await startTestServer(pgliteDriver, {
      rateLimitPlans: PLAN_LIMITS,
      rateLimitWindows: { longSeconds: 60, shortSeconds: 3 },
      rateLimitStore: store,
    });
    redis = new Redis(TEST_REDIS_URL!);
  });
  afterAll(async () => {
    proxy?.restore();
    await server?.stop();
    await redis?.quit();
    await proxy?.close();
  });

  // The minute's counter of a key (key ids are random: the machine's Redis is shared safely).
  const minuteCount = async (keyId: string) => Number((await redis.get(`pbs:rl:60s:{${keyId}}`)) ?? 0);

  it("counts in memory while Redis is cut, still enforcing the limits, and in Redis again once it is back", async () => {
    const client = server.as(await server.createKey({ plan: "pro" }));
    const first = await client.get("/v1/key");
    expectStatus(first, 200);
    const keyId = first.body.id;
    expect(await minuteCount(keyId)).toBe(1);

    proxy.cut();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await client.get("/v1/key");
      statuses.push(response.status);
      expect(response.headers.get("ratelimit-policy")).toBe('"default";q=60;w=60, "burst";q=10;w=3');
    }
    // The process's own counters start afresh: 10 pass in the burst window, the 11th is refused.
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect(await minuteCount(keyId)).toBe(1); // nothing reached Redis

    proxy.restore();
    const other = server.as(await server.createKey({ plan: "pro", workspace: "other" }));
    const deadline = Date.now() + 10_000;
    let otherId: string | undefined;
    for (;;) {
      const response = await other.get("/v1/key");
      expectStatus(response, 200);
      otherId = response.body.id;
      if ((await minuteCount(otherId)) > 0) break;
      expect(Date.now(), "the counters did not go back to Redis").toBeLessThan(deadline);
      await sleep(200);
    }
    const before = await minuteCount(keyId);
    await sleep(3000); // the burst window of the outage's counts passes
    expect((await client.get("/v1/key")).status).toBe(200);
    expect(await minuteCount(keyId)).toBe(before + 1);
  });

  it("a silent Redis (no reset, no answer) delays a request half a second at most, and only once a second", async () => {
    const client = server.as(await server.createKey({ plan: "enterprise", workspace: "silent" }));
    expect((await client.get("/v1/key")).status).toBe(200);
    const timed = async () => {
      const timings: number[] = [];
      for (let i = 0; i < 10; i++) {
        const started = Date.now();
        const response = await client.get("/v1/key");
        timings.push(Date.now() - started);
        expectStatus(response, 200);
      }
      return timings;
    };
    // What a request takes with Redis answering, on this machine under this suite's load.
    const healthy = Math.max(...(await timed()));
    proxy.pause();
    try {
      const timings = await timed();
      expect(Math.max(...timings)).toBeLessThan(500 + Math.max(500, 3 * healthy));
      expect(timings.filter((ms) => ms >= 400).length).toBeLessThanOrEqual(2);
    } finally {
      proxy.restore();
    }
  });
});
