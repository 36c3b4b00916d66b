// A PostgreSQL outage, made by cutting a TCP proxy of the test's own between the server and the
// machine's PostgreSQL (which is never stopped): every request that needs the database is answered
// `503 service_unavailable` with Retry-After (a forged key needs none: 401), /readyz fails while
// /healthz still answers, and once the proxy is restored the server recovers by itself: the pool
// reconnects, a create retried with its Idempotency-Key is made once, the audit rows of the outage
// are written, the principal cache's LISTEN connection is back (a revocation made elsewhere is
// refused at once), pg-boss works on jobs again, and no connection stays checked out of the pool for
// good (a transaction whose BEGIN the outage cut: see src/storage/postgres.ts). PGlite runs inside
// the server's process, so it has no outage to test.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { CREDENTIAL_SECRET, revokeApiKey, SECRET_RANDOM_LENGTH, withChecksum } from "../src/domain/keys.ts";
import { randomBase62 } from "../src/storage/ids.ts";
import { sharedSecret } from "../src/storage/secrets.ts";
import { isStorageUnavailable } from "../src/storage/unavailable.ts";
import type { PostgresStorage } from "../src/storage/index.ts";
import { openPostgresStorage } from "../src/storage/postgres.ts";
import { expectApiError, expectBody, expectStatus, type ApiResponse } from "./support/api-client.ts";
import { postgresDriver, type ProcessDatabase, type TestDriver } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectUnavailable(response: ApiResponse): void {
  expectApiError(response, 503, "service_unavailable");
  expect(response.headers.get("retry-after")).toBe("5");
}

/** Polls `check` every 100 ms until it holds, for up to `timeoutMs`. */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(100);
  }
}

const skip = postgresDriver.skipReason;
describe.skipIf(skip !== undefined)(`a database outage [postgres]${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let database: ProcessDatabase;
  let proxy: TcpProxy;
  let server: TestServer;
  let direct: pg.Client;
  beforeAll(async () => {
    database = await postgresDriver.forProcess();
    proxy = await startTcpProxy(database.databaseUrl!);
    const throughProxy: TestDriver = {
      ...postgresDriver,
      open: () => openPostgresStorage({ url: proxy.url(database.databaseUrl!), poolSize: 4 }),
    };
    server = await startTestServer(throughProxy, { workers: true });
    direct = new pg.Client({ connectionString: database.databaseUrl });
    await direct.connect();
  });
  afterAll(async () => {
    proxy?.restore();
    await server?.stop();
    await direct?.end();
    await proxy?.close();
    await database?.dispose();
  });

  it("answers 503 with Retry-After and fails /readyz while it lasts, then recovers by itself, losing nothing", async () => {
    const secret = await server.createKey();
    const client = server.as(secret);
    const before = await client.post(
      "/v1/projects",
      { name: "Before", prompt: "p" },
      { headers: { "Idempotency-Key": "before-1" } },
    );
    expectStatus(before, 201);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

    // Creates keep arriving, four at a time, before, during and after the outage.
    const sent: Array<{ name: string; status: number; id?: string }> = [];
    let sending = true;
    const traffic = Promise.all(
      Array.from({ length: 4 }, async (_, lane) => {
        for (let n = 0; sending; n++) {
          const name = `traffic-${lane}-${n}`;
          const response = await client.post(
            "/v1/projects",
            { name, prompt: "p" },
            { headers: { "Idempotency-Key": name } },
          );
          sent.push({ name, status: response.status, id: response.status === 201 ? response.body.id : undefined });
          if (response.status !== 201) await sleep(50);
        }
      }),
    );
    await sleep(300);
    // A key whose checksum holds, unknown: only the database could say so.
    const unknownKey = withChecksum(
      `svc_live_${randomBase62(SECRET_RANDOM_LENGTH)}`,
      await sharedSecret(server.storage.db, CREDENTIAL_SECRET),
    );

    proxy.cut();
    const during: ApiResponse[] = [
      await client.get("/v1/projects"),
      await client.get(`/v1/projects/${before.body.id}`),
      await client.post(
        "/v1/projects",
        { name: "During", prompt: "p" },
        { headers: { "Idempotency-Key": "outage-1" } },
      ),
      await client.get("/v1/key"),
      await server.as(unknownKey).get("/v1/key"),
    ];
    for (const response of during) expectUnavailable(response);
    // A forged key needs no database to be refused.
    expectApiError(await server.as("svc_live_unknown").get("/v1/key"), 401, "invalid_api_key", "Authorization");
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    await sleep(500);
    proxy.restore();
    const restoredAt = new Date();
    await eventually("/readyz answers 200", async () => (await fetch(`${server.url}/readyz`)).status === 200);
    await eventually("a read answers 200", async () => (await client.get("/v1/projects")).status === 200);
    await sleep(300);
    sending = false;
    await traffic;

    // Every create the server acknowledged is there; each key made one project at most; the
    // outage answered 503, nothing else.
    expect(new Set(sent.map((request) => request.status))).toEqual(new Set([201, 503]));
    expect(sent.filter((request) => request.status === 503).length).toBeGreaterThan(0);
    const { rows: made } = await direct.query<{ id: string; name: string }>(
      "select id, name from projects where name like 'traffic-%'",
    );
    const acknowledged = sent.filter((request) => request.status === 201);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(made.map((row) => row.id)).toEqual(expect.arrayContaining(acknowledged.map((request) => request.id)));
    expect(new Set(made.map((row) => row.name)).size).toBe(made.length);

    // The create refused during the outage, retried with its key: made once.
    const retried = await client.post(
      "/v1/projects",
      { name: "During", prompt: "p" },
      { headers: { "Idempotency-Key": "outage-1" } },
    );
    expectStatus(retried, 201);
    const replayed = await client.post(
      "/v1/projects",
      { name: "During", prompt: "p" },
      { headers: { "Idempotency-Key": "outage-1" } },
    );
    expectStatus(replayed, 201);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body.id).toBe(retried.body.id);
    const { rows } = await direct.query<{ n: string }>("select count(*) as n from projects where name = 'During'");
    expect(Number(rows[0]!.n)).toBe(1);

    // The audit rows of the outage were kept and written once the database returned.
    const outageIds = during.map((response) => response.headers.get("x-request-id")!);
    await eventually("the outage's audit rows are written", async () => {
      const { rows: audited } = await direct.query<{ request_id: string; status: number }>(
        "select request_id, status from audit_log where request_id = any($1)",
        [outageIds],
      );
      return audited.length === outageIds.length && audited.every((row) => row.status === 503);
    });

    // The principal cache listens again: a revocation made by another process is refused at once.
    await eventually("the change feed is connected", async () => server.storage.changes.connected);
    const keyId = expectBody(await client.get("/v1/key"), 200).id;
    expect((await client.get("/v1/key")).status).toBe(200); // served from the cache
    const elsewhere = await openPostgresStorage({ url: database.databaseUrl!, poolSize: 1 });
    try {
      await revokeApiKey(elsewhere.db, keyId);
    } finally {
      await elsewhere.close();
    }
    await eventually("the revoked key is refused", async () => (await client.get("/v1/key")).status === 401, 2000);

    // pg-boss works on jobs again: agent runs (of the creates above) finish after the outage.
    await eventually("agent runs finish again", async () => {
      const { rows: finished } = await direct.query<{ n: string }>(
        "select count(*) as n from agent_runs where finished_at > $1",
        [restoredAt],
      );
      return Number(finished[0]!.n) >= 2;
    });

    // Every connection the outage's requests checked out went back to the pool (or was discarded).
    const { pool } = server.storage as PostgresStorage;
    await eventually("no connection stays checked out", async () => pool.totalCount === pool.idleCount);
  });

  it("gives the pool its connection back when a transaction's BEGIN is what the outage cut", async () => {
    const ownProxy = await startTcpProxy(database.databaseUrl!);
    const storage = await openPostgresStorage({ url: ownProxy.url(database.databaseUrl!), poolSize: 1 });
    try {
      await storage.db.execute(sql`select 1`); // the pool's one connection, idle
      ownProxy.pause();
      const failed = storage.db
        .transaction((tx) => tx.execute(sql`select 1`))
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      await sleep(200); // BEGIN is sent on that connection, and held
      ownProxy.cut();
      expect(isStorageUnavailable(await failed)).toBe(true);
      ownProxy.restore();
      // The connection that BEGIN was sent on is not kept checked out: the pool has room again.
      const started = Date.now();
      await storage.db.transaction((tx) => tx.execute(sql`select 1`));
      expect(Date.now() - started).toBeLessThan(3000);
      expect(storage.pool.totalCount - storage.pool.idleCount).toBe(0);
    } finally {
      ownProxy.restore();
      await storage.close();
      await ownProxy.close();
    }
  });
});
