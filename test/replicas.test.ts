// Two replicas: two real server processes (`node src/main.ts`) started together on one fresh
// PostgreSQL database and the machine's Redis, with traffic sent to both, showing each property the
// service promises across replicas:
// - replicas starting together apply the migrations once;
// - a revoked key, and a revoked OAuth token, are refused by every replica as soon as PostgreSQL
//   delivers the change (at once by the replica that made it);
// - rate limits are global per key: a key's quota is spent across both replicas;
// - one Idempotency-Key sent to both replicas at once gives one resource;
// - each job (agent run) runs once;
// - each webhook delivery is attempted by one process at a time;
// - the audit log misses nothing: every response's X-Request-Id is in it.
import { setTimeout as sleep } from "node:timers/promises";
import { once } from "node:events";
import { sql } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../src/domain/members.ts";
import { createOAuthClient } from "../src/domain/oauth-clients.ts";
import { createAuthorization } from "../src/domain/oauth.ts";
import { findWorkspaceBySlug } from "../src/domain/workspaces.ts";
import type { Storage } from "../src/storage/index.ts";
import { readMigrations } from "../src/storage/migrator.ts";
import {
  createApiClient,
  expectBody,
  expectStatus,
  type ApiResponse,
  type RequestBody,
  type RequestOptions,
  type ResponseTo,
} from "./support/api-client.ts";
import { postgresDriver, type ProcessDatabase } from "./support/database.ts";
import { serverEnvironment } from "./support/environment.ts";
import { final } from "./support/poll.ts";
import { pbs, runPbs, startServer } from "./support/process.ts";
import { startReceiver, type Receiver } from "./support/receiver.ts";

const redisUrl = process.env.TEST_REDIS_URL?.trim() || undefined;
const skipReason = postgresDriver.skipReason ?? (redisUrl ? undefined : "set TEST_REDIS_URL to run the replica suite");

type Replica = Awaited<ReturnType<typeof startServer>>;

describe.skipIf(skipReason !== undefined)(
  `two replicas on one PostgreSQL and one Redis${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let database: ProcessDatabase;
    let storage: Storage;
    let receiver: Receiver;
    let replicas: Replica[] = [];
    /** The X-Request-Id of every /v1 response either replica gave. */
    const requestIds: string[] = [];

    beforeAll(async () => {
      database = await postgresDriver.forProcess({ migrated: false });
      receiver = await startReceiver();
      const env = {
        ...serverEnvironment(database.env),
        REDIS_URL: redisUrl!,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        WEBHOOK_RETRY_SCHEDULE: "1s",
      };
      // Started together on an empty database: both migrate at start (MIGRATE_ON_START's default).
      replicas = await Promise.all([startServer(env), startServer(env)]);
      storage = await database.open({ migrations: "require" });
    }, 180_000);

    afterAll(async () => {
      for (const replica of replicas) if (replica.child.exitCode === null) replica.child.kill("SIGKILL");
      await storage?.close();
      await receiver?.close();
      await database?.dispose();
    });

    /** A client of one replica (0 or 1) that checks every answer against the contract and notes its request id. */
    function on(replica: number, key?: string) {
      const client = createApiClient(replicas[replica]!.url, key);
      const noted = async <R extends ApiResponse>(request: Promise<R>): Promise<R> => {
        const response = await request;
        requestIds.push(response.headers.get("x-request-id")!);
        return response;
      };
      return {
        get: <P extends string>(path: P, options?: RequestOptions) => noted(client.get(path, options)),
        post: <P extends string>(path: P, body?: RequestBody<"POST", P>, options?: RequestOptions) =>
          noted(client.post(path, body, options)),
      };
    }

    const env = () => ({ ...database.env, LOG_LEVEL: "silent" });

    /** A key of a new workspace on `plan`, made by `pbs` as an operator would. */
    async function newKey(workspace: string, plan: "free" | "enterprise"): Promise<{ id: string; secret: string }> {
      await pbs(["workspaces", "create", "--slug", workspace, "--plan", plan], env());
      return JSON.parse(
        await pbs(["keys", "create", "--workspace", workspace, "--name", "replicas", "--json"], env()),
      ) as { id: string; secret: string };
    }

    it("start together on an empty database and apply each migration once", async () => {
      const recorded = await storage.db.execute<{ hash: string }>(
        sql`select hash from drizzle.__drizzle_migrations order by id`,
      );
      expect(recorded.rows.map((row) => row.hash)).toEqual(readMigrations().map((migration) => migration.hash));
      for (const replica of replicas) {
        expect((await fetch(`${replica.url}/readyz`)).status).toBe(200);
      }
    });

    /**
     * The answers of `replica` to `secret` once it is refused, or after a second. A change made by
     * another process reaches a replica when PostgreSQL delivers its notification: milliseconds, but
     * on a machine loaded with parallel suites the replica may serve one more request before it reads it.
     */
    async function refusedSoon<P extends string>(
      replica: number,
      secret: string,
      path: P,
    ): Promise<ResponseTo<"GET", P>> {
      const deadline = Date.now() + 1000;
      for (;;) {
        const answer = await on(replica, secret).get(path);
        if (answer.status !== 200 || Date.now() > deadline) return answer;
        await sleep(5);
      }
    }

    it("refuse a revoked key at once on every replica", async () => {
      const key = await newKey("revocation", "enterprise");
      // Both replicas have the key's principal cached.
      for (const replica of [0, 1]) expect((await on(replica, key.secret).get("/v1/key")).status).toBe(200);
      // Revoked by a third process, `pbs`, straight in the database.
      expect((await runPbs(["keys", "revoke", key.id], env())).code).toBe(0);
      for (const replica of [1, 0]) {
        const refused = await refusedSoon(replica, key.secret, "/v1/key");
        expectStatus(refused, 401);
        expect(refused.body.error.code).toBe("invalid_api_key");
      }
    });

    it("refuse a revoked OAuth access token at once on every replica", async () => {
      const workspace = (await findWorkspaceBySlug(storage.db, "revocation"))!;
      const { user } = await addMember(storage.db, {
        workspaceId: workspace.id,
        email: "owner@replicas.example",
        role: "owner",
        password: "a long enough password",
      });
      const redirectUri = "https://integration.example/callback";
      const created = await createOAuthClient(storage.db, { name: "Replica test", redirectUris: [redirectUri] });
      const client = { id: created.client.id, secret: created.secret! };
      // The consent, as the consent page records it; the code is exchanged at replica 0's token endpoint.
      const { code } = await createAuthorization(storage.db, {
        clientId: client.id,
        workspaceId: workspace.id,
        userId: user.id,
        scopes: ["projects:read"],
        redirectUri,
      });
      const token = await fetch(`${replicas[0]!.url}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          grant_type: "authorization_code",
          code,
          client_id: client.id,
          client_secret: client.secret,
          redirect_uri: redirectUri,
        }),
      });
      expect(token.status).toBe(200);
      const { access_token: accessToken } = (await token.json()) as { access_token: string };
      for (const replica of [0, 1]) expect((await on(replica, accessToken).get("/v1/projects")).status).toBe(200);

      const revoked = await fetch(`${replicas[1]!.url}/oauth/revoke`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`,
        },
        body: new URLSearchParams({ token: accessToken }),
      });
      expect(revoked.status).toBe(200);
      // The replica that revoked it has heard its own change before answering.
      expect((await on(1, accessToken).get("/v1/projects")).status).toBe(401);
      expect((await refusedSoon(0, accessToken, "/v1/projects")).status).toBe(401);
    });

    it("limit a key globally: its minute's quota is spent across both replicas", async () => {
      const key = await newKey("rate-limited", "free"); // 60 a minute, 10 a second
      let allowed = 0;
      const refusedForTheMinute = new Set<number>();
      // Bursts of ten (five to each replica), a second apart, until both refuse for the rest of the
      // minute. Counted per process, each replica would allow 60: 120 in all.
      for (let burst = 0; burst < 12 && refusedForTheMinute.size < 2; burst++) {
        const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => on(i % 2, key.secret).get("/v1/key")));
        allowed += answers.filter((answer) => answer.status === 200).length;
        answers.forEach((answer, i) => {
          if (answer.status === 429 && Number(answer.headers.get("retry-after")) > 1) refusedForTheMinute.add(i % 2);
        });
        await sleep(1100);
      }
      expect(allowed).toBe(60);
      expect([...refusedForTheMinute].sort()).toEqual([0, 1]);
      // The counters live in Redis, not in either process.
      const redis = new Redis(redisUrl!, { lazyConnect: true });
      try {
        await redis.connect();
        const [, found] = await redis.scan("0", "MATCH", `*${key.id}*`, "COUNT", 100_000);
        expect(found.length).toBeGreaterThan(0);
      } finally {
        redis.disconnect();
      }
    }, 180_000);

    describe("with webhook endpoints listening", () => {
      let key: { id: string; secret: string };
      const projectIds: string[] = [];
      /** Per endpoint path and event id: attempts received, and the most in flight at once. */
      const attempts = new Map<string, { count: number; inFlight: number; maxInFlight: number }>();
      const endpoints = ["/hooks/1", "/hooks/2", "/hooks/3"];

      beforeAll(async () => {
        key = await newKey("busy", "enterprise");
        for (const path of endpoints) {
          // Each event's first attempt fails, so every delivery is attempted twice; each answer takes a
          // moment, so two processes attempting one delivery at once would overlap here.
          receiver.answer(path, (response, received) => {
            const id = `${path} ${String(received.headers["webhook-id"])}`;
            const seen = attempts.get(id) ?? { count: 0, inFlight: 0, maxInFlight: 0 };
            attempts.set(id, seen);
            seen.count++;
            seen.inFlight++;
            seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
            setTimeout(() => {
              seen.inFlight--;
              response.writeHead(seen.count === 1 ? 503 : 204).end();
            }, 50);
          });
          const registered = await on(endpoints.indexOf(path) % 2, key.secret).post("/v1/webhooks", {
            url: `${receiver.url}${path}`,
            enabled_events: ["project.created", "agent_run.succeeded"],
          });
          expect(registered.status).toBe(201);
        }
      });

      it("give one resource for one Idempotency-Key sent to both replicas at once", async () => {
        for (let i = 0; i < 6; i++) {
          const options = { headers: { "Idempotency-Key": `replicas-${i}` } };
          const body = { name: `Replicated ${i}`, prompt: "A page that says hello." };
          const answers = await Promise.all([
            on(0, key.secret).post("/v1/projects", body, options),
            on(1, key.secret).post("/v1/projects", body, options),
          ]);
          const created = answers.filter((answer) => answer.status === 201);
          expect(created.length, JSON.stringify(answers.map((answer) => [answer.status, answer.body]))).toBeGreaterThan(
            0,
          );
          // The other answered the same project (a replay) or that the first was still running (409).
          for (const answer of answers)
            if (answer.status !== 201) expect(answer.body.error.code).toBe("idempotency_key_in_use");
          const ids = new Set(created.map((answer) => answer.body.id));
          expect(ids.size).toBe(1);
          const [id] = ids;
          // Sent again to each replica: the same project, replayed.
          for (const replica of [0, 1]) {
            const replay = await on(replica, key.secret).post("/v1/projects", body, options);
            expectStatus(replay, 201);
            expect(replay.body.id).toBe(id);
            expect(replay.headers.get("idempotent-replayed")).toBe("true");
          }
          projectIds.push(id!);
        }
        const listed = await on(0, key.secret).get("/v1/projects?limit=100");
        expectStatus(listed, 200);
        expect(listed.body.data.map((project: { id: string }) => project.id).sort()).toEqual([...projectIds].sort());
      });

      /** Waits until every run of every project is final; answers their ids. */
      async function finishedRuns(): Promise<string[]> {
        const deadline = Date.now() + 30_000;
        const ids: string[] = [];
        for (const [i, id] of projectIds.entries()) {
          for (;;) {
            const runs = expectBody(await on(i % 2, key.secret).get(`/v1/projects/${id}/runs`), 200).data;
            if (runs.every(final)) {
              ids.push(...runs.map((run) => run.id));
              break;
            }
            if (Date.now() > deadline) throw new Error(`runs of ${id} did not finish: ${JSON.stringify(runs)}`);
            await sleep(200);
          }
        }
        return ids;
      }

      it("run each job once", async () => {
        await finishedRuns();
        // A second run of each project, triggered through the other replica.
        for (const [i, id] of projectIds.entries()) {
          expect(
            (await on((i + 1) % 2, key.secret).post(`/v1/projects/${id}/runs`, { prompt: "Make it blue." })).status,
          ).toBe(202);
        }
        const runIds = await finishedRuns();
        expect(runIds).toHaveLength(2 * projectIds.length);
        // Each run was carried out by exactly one process, and ended once.
        const finishedBy = new Map<string, number[]>();
        replicas.forEach((replica, index) => {
          for (const line of replica.logs) {
            const entry = JSON.parse(line) as { msg: string; run_id?: string };
            if (entry.msg === "run finished")
              finishedBy.set(entry.run_id!, [...(finishedBy.get(entry.run_id!) ?? []), index]);
          }
        });
        expect([...finishedBy.keys()].sort()).toEqual([...runIds].sort());
        for (const [run, by] of finishedBy) expect(by, run).toHaveLength(1);
        // Both replicas took part, or "once" would prove nothing.
        expect(new Set([...finishedBy.values()].flat())).toEqual(new Set([0, 1]));
        const ends = await storage.db.execute<{ run: string; ends: number }>(
          sql`select data->>'id' as run, count(*)::int as ends from events where type in ('agent_run.succeeded', 'agent_run.failed') group by 1`,
        );
        expect(ends.rows.map((row) => row.run).sort()).toEqual([...runIds].sort());
        expect(ends.rows.every((row) => row.ends === 1)).toBe(true);
      }, 180_000);

      it("attempt each webhook delivery by one process at a time", async () => {
        const deadline = Date.now() + 40_000;
        for (;;) {
          const [pending] = (
            await storage.db.execute<{ count: number }>(
              sql`select count(*)::int as count from webhook_deliveries where status = 'pending'`,
            )
          ).rows;
          if (pending!.count === 0) break;
          if (Date.now() > deadline) throw new Error(`${pending!.count} deliveries still pending`);
          await sleep(250);
        }
        const [events] = (
          await storage.db.execute<{ count: number }>(
            sql`select count(*)::int as count from events where type in ('project.created', 'agent_run.succeeded')`,
          )
        ).rows;
        expect(events!.count).toBe(projectIds.length * 3); // one project.created and two agent_run.succeeded each
        expect(attempts.size).toBe(events!.count * endpoints.length);
        for (const [delivery, seen] of attempts) {
          expect({ delivery, count: seen.count, maxInFlight: seen.maxInFlight }).toEqual({
            delivery,
            count: 2,
            maxInFlight: 1,
          });
        }
        const deliveries = await storage.db.execute<{ status: string; attempts: number; count: number }>(
          sql`select status, attempts, count(*)::int as count from webhook_deliveries group by 1, 2`,
        );
        expect(deliveries.rows).toEqual([{ status: "succeeded", attempts: 2, count: attempts.size }]);
      }, 180_000);
    });

    it("miss nothing in the audit log: every response's request id is there once the replicas stop", async () => {
      expect(requestIds.length).toBeGreaterThan(100);
      // A graceful stop writes the audit rows still queued.
      await Promise.all(
        replicas.map(async (replica) => {
          const exited = once(replica.child, "exit");
          replica.child.kill("SIGTERM");
          const [code] = await exited;
          expect(code).toBe(0);
        }),
      );
      const found = await storage.db.execute<{ request_id: string }>(
        sql`select request_id from audit_log where request_id is not null`,
      );
      const audited = new Set(found.rows.map((row) => row.request_id));
      expect(requestIds.filter((id) => !audited.has(id))).toEqual([]);
    }, 180_000);
  },
);
