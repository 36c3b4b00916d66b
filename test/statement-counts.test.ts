// What a request costs the database, counted at the driver by the bench's hooks
// (bench/statement-hooks.ts): a warm read is one statement, an idempotent create seven (the claim;
// BEGIN; the project, its run, its events and their deliveries in one; the run's turn in the fair
// queue; pg-boss's job; the stored answer; COMMIT — every one but BEGIN and COMMIT a named statement
// on PostgreSQL), the audit rows
// of concurrent requests a few batched INSERTs. With a shared rate-limit store (PostgreSQL or
// Redis) each request adds one round trip for its limit (src/http/rate-limit.test.ts pins that one).
import { afterAll, beforeAll, expect, it } from "vitest";
import { hookStatements } from "../bench/statement-hooks.ts";
import { createPostgresStore, PLAN_LIMITS } from "../src/http/rate-limit/index.ts";
import { randomBase62 } from "../src/storage/ids.ts";
import type { PostgresStorage } from "../src/storage/index.ts";
import { expectStatus } from "./support/api-client.ts";
import { forEachDriver } from "./support/database.ts";
import { settleBackground } from "./support/background.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

/** A statement as the driver was given it: its text, and whether it went as a named (prepared) one. */
interface Sent {
  readonly text: string;
  readonly named: boolean;
}

const seen: Sent[] = [];
function record(text: string, named: boolean): void {
  seen.push({ text: text.replace(/\s+/g, " ").trim(), named });
}

/** The statements `work` sends, once the audit rows of earlier requests are written. */
async function statementsOf(server: TestServer, work: () => Promise<unknown>): Promise<Sent[]> {
  // Every pg.Client of this process is counted: the test databases other cases closed are dropped
  // in the background (test/support/background.ts), and their statements are not the request's.
  await settleBackground();
  await server.app.flushAudit();
  seen.length = 0;
  await work();
  return [...seen];
}

forEachDriver("statements per request", (driver) => {
  let server: TestServer;
  let unhook = () => {};
  beforeAll(async () => {
    server = await startTestServer(driver);
    unhook = hookStatements(record);
  });
  afterAll(async () => {
    unhook();
    await server?.stop();
  });

  it("a warm GET of a project: one statement", async () => {
    const created = await server.client.post("/v1/projects", { name: "Counted", prompt: "p" });
    expectStatus(created, 201);
    await server.client.get(`/v1/projects/${created.body.id}`); // the key is looked up once a minute
    const sent = await statementsOf(server, () => server.client.get(`/v1/projects/${created.body.id}`));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toMatch(/from "projects"/);
  });

  it("a warm list of a project's versions, and a warm GET of one: one statement each", async () => {
    const created = await server.client.post("/v1/projects", { name: "Versioned", prompt: "p" });
    expectStatus(created, 201);
    const checkpoint = await server.client.post(`/v1/projects/${created.body.id}/versions`, { message: "first" });
    expectStatus(checkpoint, 201);
    const list = await statementsOf(server, () => server.client.get(`/v1/projects/${created.body.id}/versions`));
    expect(list.map(({ text }) => text)).toEqual([expect.stringMatching(/from "versions"/)]);
    const one = await statementsOf(server, () =>
      server.client.get(`/v1/projects/${created.body.id}/versions/${checkpoint.body.id}`),
    );
    expect(one.map(({ text }) => text)).toEqual([expect.stringMatching(/from "versions"/)]);
  });

  it.runIf(driver.name === "postgres")(
    "warm GETs with the rate limit counted in PostgreSQL: a statement per ten requests for it",
    async () => {
      const counted = await startTestServer(driver, {
        rateLimitPlans: PLAN_LIMITS,
        rateLimitStore: (storage) => createPostgresStore({ pool: (storage as PostgresStorage).pool }),
      });
      try {
        const client = counted.as(await counted.createKey({ workspace: "big", plan: "enterprise" }));
        const created = await client.post("/v1/projects", { name: "Counted", prompt: "p" });
        expectStatus(created, 201);
        await client.get(`/v1/projects/${created.body.id}`);
        const sent = await statementsOf(counted, async () => {
          for (let i = 0; i < 50; i++) await client.get(`/v1/projects/${created.body.id}`);
        });
        const limits = sent.filter(({ text }) => /rate_limit_take/.test(text));
        expect(sent.filter(({ text }) => /from "projects"/.test(text))).toHaveLength(50);
        // 50 requests with leases of 10 (an enterprise key's burst is 100), and one more when the second turns.
        expect(limits.length).toBeGreaterThanOrEqual(4);
        expect(limits.length).toBeLessThanOrEqual(7);
      } finally {
        await counted.stop();
      }
    },
  );

  it("an idempotent create: claim, then BEGIN, project + run + events + deliveries, turn, job, stored answer, COMMIT", async () => {
    await server.client.get("/v1/projects?limit=1");
    const sent = await statementsOf(server, () =>
      server.client.post(
        "/v1/projects",
        { name: "Counted create", prompt: "p" },
        { headers: { "Idempotency-Key": `count-${Date.now()}` } },
      ),
    );
    expect(sent.length, sent.map(({ text }) => text).join("\n")).toBeLessThanOrEqual(7);
    if (driver.name === "postgres") {
      // Each parsed and planned once per connection, pg-boss's job insert included (src/storage/prepared.ts).
      const unnamed = sent
        .filter(({ text, named }) => !named && !/^(begin|commit)$/i.test(text))
        .map(({ text }) => text);
      expect(unnamed).toEqual([]);
    }
  });

  it("a refused key, again: no statement (its refusal is remembered; the audit row is batched)", async () => {
    await server.as("svc_live_unknownunknownunknownunknownunknown1").get("/v1/projects");
    const sent = await statementsOf(server, () =>
      server.as("svc_live_unknownunknownunknownunknownunknown1").get("/v1/projects"),
    );
    expect(sent).toEqual([]);
  });

  it("a flood of random keys, shaped like keys with or without a checksum: no statement (only batched audit rows)", async () => {
    const keys = Array.from({ length: 200 }, (_, i) =>
      i % 2 ? `svc_${i % 4 === 1 ? "live" : "test"}_${randomBase62(46)}` : `svc_live_${randomBase62(40)}`,
    );
    // The keys created since the server started are read once, by the first such key (src/http/key-screen.ts).
    await server.as(`svc_live_${randomBase62(40)}`).get("/v1/projects");
    const sent = await statementsOf(server, async () => {
      const responses = await Promise.all(keys.map((key) => server.as(key).get("/v1/projects")));
      expect(responses.map((response) => response.status)).toEqual(Array(keys.length).fill(401));
    });
    // pg-boss's own upkeep may fall in the same moment; it is no request's.
    const requests = sent.map(({ text }) => text).filter((text) => !/pgboss\./.test(text));
    expect(requests.filter((text) => !/insert into audit_log/i.test(text))).toEqual([]);
  });

  it("an address past its limit of failed requests: no statement for fresh random keys (only batched audit rows)", async () => {
    const limited = await startTestServer(driver, { unauthenticatedLimit: { limit: 3 } });
    try {
      for (let i = 0; i < 3; i++) await limited.as(`svc_live_random_${i}_${Date.now()}`).get("/v1/projects");
      await limited.app.flushAudit();
      seen.length = 0;
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => limited.as(`svc_live_flood_${i}_${Date.now()}`).get("/v1/projects")),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(20).fill(429));
      const sent = [...seen];
      await limited.app.flushAudit();
      // A connection the pool opens meanwhile (for the audit rows) LISTENs first: no request's.
      const requests = sent.map(({ text }) => text).filter((text) => !/^LISTEN /.test(text));
      expect(requests.filter((text) => !/insert into audit_log/i.test(text))).toEqual([]);
    } finally {
      await limited.stop();
    }
  });

  it("the audit rows of concurrent requests: fewer INSERTs than requests (batched every few milliseconds)", async () => {
    const sent = await statementsOf(server, async () => {
      await Promise.all(Array.from({ length: 20 }, () => server.client.get("/v1/projects?limit=1")));
      await server.app.flushAudit();
    });
    const inserts = sent.filter(({ text }) => text.includes("audit_log")).length;
    expect(inserts).toBeGreaterThan(0);
    expect(inserts).toBeLessThan(20);
  });
});
