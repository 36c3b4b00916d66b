// Rate limiting over HTTP with the real plan figures (PGlite; the limiter does not touch the
// database): the burst of 10 in a second, the 60 a minute (proved on shortened windows), 429
// key_rate_limited with Retry-After, the headers on every response to a key, independent keys,
// higher figures for higher plans, and counters shared through Redis when TEST_REDIS_URL is set.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../src/app.ts";
import { createRedisStore, PLAN_LIMITS, selectRateLimitStore, type Plan } from "../src/http/rate-limit/index.ts";
import { createLogger } from "../src/logger.ts";
import {
  createApiClient,
  expectApiError,
  expectBody,
  expectStatus,
  invalidBody,
  type ApiClient,
  type ApiResponse,
  type ResponseTo,
} from "./support/api-client.ts";
import { contract } from "./support/contract.ts";
import { pgliteDriver } from "./support/database.ts";
import { startTestServer, suiteServer, type TestServer } from "./support/server.ts";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL?.trim() || undefined;
// The client checks responses against the contract; build its validators now, not inside a timed burst.
await contract();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RATE_LIMIT_HEADERS = [
  "ratelimit",
  "ratelimit-policy",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-used",
  "x-ratelimit-reset",
];

const policyOf = (plan: Plan, longSeconds = 60, shortSeconds = 1) =>
  `"default";q=${PLAN_LIMITS[plan].perMinute};w=${Math.ceil(longSeconds)}, "burst";q=${PLAN_LIMITS[plan].burst};w=${Math.ceil(shortSeconds)}`;

/** A 429 key_rate_limited; its X-RateLimit-* fields describe the minute (`minute`), whichever window refused. */
function expectLimited(response: ApiResponse, minute: { limit: number; remaining: number }): void {
  expectApiError(response, 429, "key_rate_limited");
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  // The message says the same wait, in words that read right: "1 second", "30 seconds".
  expect(response.body.error.message).toBe(
    `Too many requests from this key; retry after ${retryAfter} second${retryAfter === 1 ? "" : "s"}.`,
  );
  expect(response.headers.get("x-ratelimit-limit")).toBe(String(minute.limit));
  expect(response.headers.get("x-ratelimit-remaining")).toBe(String(minute.remaining));
  expect(response.headers.get("x-ratelimit-used")).toBe(String(minute.limit - minute.remaining));
  expect(Number(response.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
}

/**
 * Sends `count` requests one after the other, within a second of the first, with a fresh key. On a
 * machine too loaded to send them within the second (the window under test), it starts again with
 * another fresh key, up to three times, rather than judging the limiter by the machine's speed.
 */
async function burst(
  newClient: () => Promise<ApiClient>,
  count: number,
): Promise<{ client: ApiClient; responses: ApiResponse[] }> {
  let elapsed = 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    const client = await newClient();
    const started = Date.now();
    const responses: ApiResponse[] = [];
    for (let i = 0; i < count; i++) responses.push(await client.get("/v1/key"));
    elapsed = Date.now() - started;
    if (elapsed < 1000) return { client, responses };
  }
  throw new Error(
    `three bursts of ${count} requests each took longer than their one-second window (the last ${elapsed} ms): the machine is too loaded to test this`,
  );
}

describe("rate limits with the plan figures", () => {
  const server = suiteServer(pgliteDriver, { rateLimitPlans: PLAN_LIMITS });

  it("lets 10 quick requests through and answers the 11th in the same second with 429 and Retry-After", async () => {
    const { client, responses } = await burst(
      async () => server.as(await server.createKey({ workspace: "burst", plan: "pro" })),
      11,
    );
    const passed = responses.slice(0, 10);
    for (const [i, response] of passed.entries()) {
      expectStatus(response, 200);
      expect(response.headers.get("ratelimit-policy")).toBe(policyOf("pro"));
      // The X-RateLimit-* fields describe the minute; the second's burst is in RateLimit.
      expect(response.headers.get("x-ratelimit-limit")).toBe("60");
      expect(response.headers.get("x-ratelimit-remaining")).toBe(String(59 - i));
      expect(response.headers.get("x-ratelimit-used")).toBe(String(i + 1));
      expect(response.headers.get("ratelimit")).toMatch(
        new RegExp(`^"default";r=${59 - i};t=(59|60), "burst";r=${9 - i};t=[01]$`),
      );
      expect(response.headers.get("retry-after")).toBeNull();
    }
    const refused = responses[10]!;
    expectLimited(refused, { limit: 60, remaining: 50 });
    expect(refused.headers.get("retry-after")).toBe("1");
    // The refusal did not spend the minute's quota: 50 are left of it, as after the 10 that passed.
    expect(refused.headers.get("ratelimit")).toMatch(/^"default";r=50;t=\d+, "burst";r=0;t=[01]$/);

    await sleep(Number(refused.headers.get("retry-after")) * 1000 + 50);
    const after = await client.get("/v1/key");
    expect(after.status).toBe(200);
    expect(after.headers.get("ratelimit")).toMatch(/^"default";r=49;t=\d+, "burst";r=9;t=[01]$/);
  });

  it("keeps each key's counters apart, in one workspace and across workspaces", async () => {
    const sibling = server.as(await server.createKey({ workspace: "apart" }));
    const stranger = server.as(await server.createKey({ workspace: "elsewhere" }));
    const { responses } = await burst(async () => server.as(await server.createKey({ workspace: "apart" })), 11);
    expectLimited(responses[10]!, { limit: 60, remaining: 50 });
    for (const client of [sibling, stranger]) {
      const response = await client.get("/v1/key");
      expectStatus(response, 200);
      expect(response.headers.get("x-ratelimit-remaining")).toBe("59");
    }
  });

  it("puts the rate-limit headers on every response to an identified key, errors included", async () => {
    const secret = await server.createKey({ workspace: "headers", plan: "enterprise" });
    const client = server.as(secret);
    const readOnly = server.as(await server.createKey({ workspace: "headers", scopes: ["projects:read"] }));
    const created = await client.post(
      "/v1/projects",
      { name: "h", prompt: "p" },
      { headers: { "Idempotency-Key": "headers-1" } },
    );
    expectStatus(created, 201);
    const responses: [string, ApiResponse][] = [
      ["200", await client.get("/v1/key")],
      ["201", created],
      [
        "201 replayed",
        await client.post("/v1/projects", { name: "h", prompt: "p" }, { headers: { "Idempotency-Key": "headers-1" } }),
      ],
      [
        "422",
        await client.post(
          "/v1/projects",
          { name: "other", prompt: "p" },
          { headers: { "Idempotency-Key": "headers-1" } },
        ),
      ],
      ["400", await client.post("/v1/projects", invalidBody({ name: "no prompt" }))],
      ["400 limit", await client.get("/v1/projects?limit=0")],
      ["404", await client.get("/v1/projects/prj_8kF2mQ9xLp3vR7tZ")],
      ["401 insufficient_scope", await readOnly.post("/v1/projects", { name: "x", prompt: "y" })],
      ["415", await client.request("POST", "/v1/projects", { raw: "x", headers: { "Content-Type": "text/plain" } })],
      ["204", await client.delete(`/v1/projects/${created.body.id}`)],
    ];
    for (const [what, response] of responses) {
      for (const header of RATE_LIMIT_HEADERS)
        expect(response.headers.get(header), `${what}: ${header}`).not.toBeNull();
      expect(response.headers.get("ratelimit-policy"), what).toBe(policyOf("enterprise"));
    }
    expect(responses.map(([what, response]) => `${what.split(" ")[0]}:${response.status}`)).toEqual(
      responses.map(([what]) => `${what.split(" ")[0]}:${what.split(" ")[0]}`),
    );
  });

  it("gives higher plans their higher figures, and the usage endpoint the same ones", async () => {
    for (const plan of ["free", "pro", "team", "enterprise"] as const) {
      const client = server.as(await server.createKey({ workspace: `plan-${plan}`, plan }));
      const response = await client.get("/v1/billing/usage");
      expectStatus(response, 200);
      expect(response.headers.get("ratelimit-policy")).toBe(policyOf(plan));
      expect(response.headers.get("x-ratelimit-limit")).toBe(String(PLAN_LIMITS[plan].perMinute));
      expect(response.body.rate_limit).toEqual({
        requests_per_minute: PLAN_LIMITS[plan].perMinute,
        burst_per_second: PLAN_LIMITS[plan].burst,
      });
    }
    expect(PLAN_LIMITS.enterprise.burst).toBeGreaterThan(PLAN_LIMITS.pro.burst);
    expect(PLAN_LIMITS.team.perMinute).toBeGreaterThan(PLAN_LIMITS.pro.perMinute);
  });
});

describe("rate limits on shortened windows", () => {
  it("caps a key at 60 a minute (a 4-second 'minute' of 0.1-second bursts), then lets it in again once the minute is over", async () => {
    const windows = { longSeconds: 4, shortSeconds: 0.1 };
    const server = await startTestServer(pgliteDriver, { rateLimitPlans: PLAN_LIMITS, rateLimitWindows: windows });
    try {
      const client = server.as(await server.createKey({ workspace: "minute", plan: "pro" }));
      const started = Date.now();
      let passed = 0;
      let burstRefusals = 0;
      while (passed < 60) {
        expect(Date.now() - started, "60 requests did not fit in the long window").toBeLessThan(3500);
        const response = await client.get("/v1/key");
        if (response.status === 200) {
          passed++;
          expect(response.headers.get("ratelimit-policy")).toBe(policyOf("pro", 4, 0.1));
          continue;
        }
        // Refused by the burst window, with the minute's figures reported; wait for the next 0.1 s.
        expectLimited(response, { limit: 60, remaining: 60 - passed });
        burstRefusals++;
        await sleep(100);
      }
      expect(burstRefusals).toBeGreaterThan(0);
      const refused = await client.get("/v1/key");
      expectLimited(refused, { limit: 60, remaining: 0 });
      expect(refused.headers.get("ratelimit")).toMatch(/^"default";r=0;t=[1-4], "burst";r=\d+;t=[01]$/);
      expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(4);
      // Refused again while the minute lasts, even after a burst window has passed.
      await sleep(150);
      expectLimited(await client.get("/v1/key"), { limit: 60, remaining: 0 });

      await sleep(Math.max(0, Number(refused.headers.get("x-ratelimit-reset")) * 1000 - Date.now()) + 100);
      const again = await client.get("/v1/key");
      expect(again.status).toBe(200);
      expect(again.headers.get("ratelimit")).toMatch(/^"default";r=59;/);
    } finally {
      await server.stop();
    }
  });

  it("lets an enterprise key make 100 in a burst where a pro key makes 10", async () => {
    const windows = { longSeconds: 20, shortSeconds: 10 };
    const server = await startTestServer(pgliteDriver, { rateLimitPlans: PLAN_LIMITS, rateLimitWindows: windows });
    try {
      for (const plan of ["pro", "enterprise"] as const) {
        const client = server.as(await server.createKey({ workspace: `wide-${plan}`, plan }));
        const allowed = PLAN_LIMITS[plan].burst;
        const statuses: number[] = [];
        for (let sent = 0; sent < allowed; sent += 20) {
          const batch = Math.min(20, allowed - sent);
          statuses.push(
            ...(await Promise.all(Array.from({ length: batch }, () => client.get("/v1/key")))).map((r) => r.status),
          );
        }
        expect(statuses.filter((status) => status === 200)).toHaveLength(allowed);
        expectLimited(await client.get("/v1/key"), {
          limit: PLAN_LIMITS[plan].perMinute,
          remaining: PLAN_LIMITS[plan].perMinute - allowed,
        });
      }
    } finally {
      await server.stop();
    }
  });
});

describe.skipIf(!TEST_REDIS_URL)(
  `rate limits in Redis${TEST_REDIS_URL ? "" : " (skipped: set TEST_REDIS_URL)"}`,
  () => {
    let server: TestServer;
    let replica: App;
    let replicaUrl: string;
    beforeAll(async () => {
      const store = await selectRateLimitStore({ redisUrl: TEST_REDIS_URL });
      expect(store.kind).toBe("redis");
      server = await startTestServer(pgliteDriver, { rateLimitPlans: PLAN_LIMITS, rateLimitStore: store });
      // A second server on the same database and the same Redis: a replica.
      replica = await createApp({
        storage: server.storage,
        logger: createLogger({ level: "silent" }),
        cursorSecret: "test-cursor-secret-0123456789",
        rateLimitStore: await createRedisStore({ url: TEST_REDIS_URL! }),
        rateLimitPlans: PLAN_LIMITS,
        work: server.jobs,
        apps: server.apps,
        webhookTargets: server.webhookTargets,
        publicUrl: server.url,
        csrfSecret: "test-csrf-secret-0123456789",
      });
      replicaUrl = await replica.listen(0, "127.0.0.1");
    });
    afterAll(async () => {
      await replica?.stop();
      await server?.stop();
    });

    it("counts a key's requests across replicas, and keeps the counters in Redis", async () => {
      const secret = await server.createKey({ workspace: "redis", plan: "pro" });
      const clients = [server.as(secret), createApiClient(replicaUrl, secret)];
      const started = Date.now();
      const responses: ResponseTo<"GET", "/v1/key">[] = [];
      for (let i = 0; i < 11; i++) responses.push(await clients[i % 2]!.get("/v1/key"));
      expect(Date.now() - started).toBeLessThan(1000);
      for (const [i, response] of responses.slice(0, 10).entries()) {
        expect(response.status, `request ${i}`).toBe(200);
        expect(response.headers.get("x-ratelimit-remaining")).toBe(String(59 - i));
      }
      expectLimited(responses[10]!, { limit: 60, remaining: 50 });
      const keyId = expectBody(responses[0]!, 200).id;
      const redis = new Redis(TEST_REDIS_URL!);
      try {
        const stored = await redis.keys(`*${keyId}*`);
        expect(stored.length).toBeGreaterThanOrEqual(2); // the minute and the burst window
      } finally {
        await redis.quit();
      }
    });
  },
);
