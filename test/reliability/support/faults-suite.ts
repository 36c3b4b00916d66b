// Faults during traffic, on a real server process (src/main.ts) whose PostgreSQL and Redis are
// reached through TCP proxies of the test's own (the machine's services are never stopped), with a
// webhook receiver of the test's own. Declared by faults.test.ts (npm test: one round) and
// faults.long.test.ts (several rounds).
//
// Each round, while three clients keep creating projects (each with an Idempotency-Key and a name
// made from it): PostgreSQL is cut (requests answer 503 service_unavailable with Retry-After, never
// anything else) and restored (the server recovers by itself); then Redis is cut (rate limiting falls
// back to memory: requests keep being answered) and restored. The webhook receiver is down from the
// first cut until after the last. Afterwards every key is sent again (each makes or replays one
// project), every acknowledged project is found, none is made twice, every run finishes, and the
// receiver, up again, gets every event the database recorded (WEBHOOK_RETRY_SCHEDULE shortened).
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresDriver, type ProcessDatabase } from "../../support/database.ts";
import { serverEnvironment } from "../../support/environment.ts";
import { freePort } from "../../support/net.ts";
import { pbs, startServer } from "../../support/process.ts";
import { startTcpProxy, type TcpProxy } from "../../support/tcp-proxy.ts";
import { recordResult } from "./summary.ts";

export interface FaultsSuiteOptions {
  /** Rounds of (PostgreSQL cut, Redis cut) with the receiver down across them. */
  readonly rounds: number;
  /** How long each cut lasts. */
  readonly outageMs: number;
}

const serverLogFile = join(tmpdir(), "pbs-faults-server.log");
const redisUrl = process.env.TEST_REDIS_URL?.trim() || undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** IDEMPOTENCY_LOCK_TIMEOUT of the server: how long a claim the database cut left stays in use. */
const LOCK_TIMEOUT_MS = 5_000;

/** A webhook receiver on a fixed port that can go down (stop listening) and come back. */
async function flakyReceiver(): Promise<{
  url: string;
  received: Set<string>;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}> {
  const port = await freePort();
  const received = new Set<string>();
  let server: Server | undefined;
  const up = async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        received.add(String(request.headers["webhook-id"]));
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
  };
  const down = async () => {
    const closing = server;
    server = undefined;
    if (!closing) return;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  await up();
  return { url: `http://127.0.0.1:${port}/hooks`, received, down, up, close: down };
}

export function faultsSuite(options: FaultsSuiteOptions): void {
  const skip = postgresDriver.skipReason ?? (redisUrl ? undefined : "set TEST_REDIS_URL to run the Redis faults");
  describe.skipIf(skip !== undefined)(
    `faults during traffic: PostgreSQL and Redis cut, a webhook receiver down${skip ? ` (skipped: ${skip})` : ""}`,
    () => {
      let database: ProcessDatabase;
      let pgProxy: TcpProxy;
      let redisProxy: TcpProxy;
      let receiver: Awaited<ReturnType<typeof flakyReceiver>>;
      let direct: pg.Client;
      const children: ChildProcess[] = [];
      let serverLogs: string[] | undefined;

      beforeAll(async () => {
        database = await postgresDriver.forProcess();
        pgProxy = await startTcpProxy(database.databaseUrl!);
        redisProxy = await startTcpProxy(redisUrl!);
        receiver = await flakyReceiver();
        direct = new pg.Client({ connectionString: database.databaseUrl });
        await direct.connect();
      });
      afterAll(async () => {
        // Kept for a post-mortem: what the server said through the faults (the last run's only).
        if (serverLogs) writeFileSync(serverLogFile, serverLogs.join("\n"));
        for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
        pgProxy?.restore();
        redisProxy?.restore();
        await direct?.end();
        await Promise.all([pgProxy?.close(), redisProxy?.close(), receiver?.close()]);
        await database?.dispose();
      });

      const pendingDeliveries = async () =>
        Number(
          (await direct.query<{ n: string }>("select count(*) as n from webhook_deliveries where status = 'pending'"))
            .rows[0]!.n,
        );

      it(`answers 503 then recovers, keeps answering without Redis, and delivers every event once the receiver is back (${options.rounds} round(s))`, async () => {
        const server = await startServer({
          ...serverEnvironment(database.env),
          DATABASE_URL: pgProxy.url(database.databaseUrl!),
          REDIS_URL: redisProxy.url(redisUrl!),
          IDEMPOTENCY_LOCK_TIMEOUT: `${LOCK_TIMEOUT_MS}ms`,
          AGENT_CONCURRENCY: "4",
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
          // Retries every second, then every ten seconds (the most attempts allowed, 20, span 155 s)
          // or, over several rounds, every thirty (455 s): long enough to outlast the receiver's
          // downtime even when cut claims are waited out, after which a delivery would be `failed`.
          WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 20 }, (_, i) =>
            i < 5 ? "1s" : options.rounds > 1 ? "30s" : "10s",
          ).join(","),
        });
        children.push(server.child);
        serverLogs = server.logs;
        await pbs(["workspaces", "create", "--slug", "faults", "--plan", "enterprise"], database.env);
        const secret = (await pbs(["keys", "create", "--workspace", "faults", "--name", "faults"], database.env))
          .trimEnd()
          .split("\n")
          .at(-1)!;
        // A request, sent again after Retry-After while the key's rate limit says so.
        const api = async (path: string, init: { method?: string; body?: unknown; key?: string } = {}) => {
          for (;;) {
            const answer = await send(path, init);
            if (answer.status !== 429) return answer;
            await sleep(Number(answer.headers.get("retry-after") ?? 1) * 1000);
          }
        };
        const send = (path: string, init: { method?: string; body?: unknown; key?: string }) =>
          fetch(`${server.url}${path}`, {
            method: init.method ?? "GET",
            headers: {
              Authorization: `Bearer ${secret}`,
              ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
              ...(init.key ? { "Idempotency-Key": init.key } : {}),
            },
            body: init.body === undefined ? undefined : JSON.stringify(init.body),
            signal: AbortSignal.timeout(30_000),
          }).then(async (response) => ({
            status: response.status,
            headers: response.headers,
            // What is read of an answer: its id, or its error's code (a fault may leave no JSON at all).
            body: (await response.json().catch(() => undefined)) as
              { id?: string; error?: { code: string } } | undefined,
          }));
        const endpoint = await api("/v1/webhooks", {
          method: "POST",
          body: { url: receiver.url, enabled_events: ["*"] },
        });
        expect(endpoint.status).toBe(201);

        const sent: { key: string; status: number; id?: string }[] = [];
        const statuses = new Map<string, number>();
        let phase = "normal";
        let sending = true;
        const traffic = Promise.all(
          Array.from({ length: 3 }, async () => {
            while (sending) {
              const key = `fault-${randomBytes(9).toString("base64url")}`;
              const answer = await api("/v1/projects", {
                method: "POST",
                key,
                body: { name: `fault ${key}`, prompt: "Built through faults" },
              });
              const tag = `${phase} ${answer.status}`;
              statuses.set(tag, (statuses.get(tag) ?? 0) + 1);
              sent.push({ key, status: answer.status, id: answer.body?.id });
              if (answer.status === 503) {
                expect(answer.body?.error?.code).toBe("service_unavailable");
                expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
              } else {
                expect(answer.status, `${phase}: ${JSON.stringify(answer.body)}`).toBe(201);
              }
              await sleep(200);
            }
          }),
        );
        const recovered = async (what: string) => {
          const deadline = Date.now() + 30_000;
          while (
            (await fetch(`${server.url}/readyz`)).status !== 200 ||
            (await api("/v1/projects?limit=1")).status !== 200
          ) {
            if (Date.now() > deadline) throw new Error(`the server did not recover within 30 s after ${what}`);
            await sleep(100);
          }
        };

        let faults = 0;
        await sleep(800);
        await receiver.down();
        faults += 1;
        for (let round = 0; round < options.rounds; round++) {
          phase = "database cut";
          pgProxy.cut();
          faults += 1;
          await sleep(options.outageMs);
          expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
          expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
          pgProxy.restore();
          phase = "database back";
          await recovered("the database came back");
          await sleep(300);

          phase = "redis cut";
          redisProxy.cut();
          faults += 1;
          await sleep(options.outageMs);
          redisProxy.restore();
          phase = "redis back";
          await sleep(500);
        }
        await receiver.up();
        const receiverBack = Date.now();
        const pendingWhenBack = await pendingDeliveries();
        sending = false;
        await traffic;
        // The database cut was felt (503s) and the Redis cut was not (only 201s).
        expect(
          [...statuses.keys()].filter((tag) => tag.startsWith("redis")).every((tag) => tag.endsWith(" 201")),
          JSON.stringify([...statuses]),
        ).toBe(true);
        expect(statuses.get("database cut 503") ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);

        // Every key again: 201, made now (its first try was refused) or replayed. A key whose claim
        // was taken just as the database went away could not be released: it is in use until its
        // lease ends (IDEMPOTENCY_LOCK_TIMEOUT), and a client retries it later, as told.
        const retryUntil = Date.now() + LOCK_TIMEOUT_MS + 15_000;
        for (const request of sent) {
          let again = await api("/v1/projects", {
            method: "POST",
            key: request.key,
            body: { name: `fault ${request.key}`, prompt: "Built through faults" },
          });
          while (
            again.status === 409 &&
            again.body?.error?.code === "idempotency_key_in_use" &&
            Date.now() < retryUntil
          ) {
            await sleep(1000);
            again = await api("/v1/projects", {
              method: "POST",
              key: request.key,
              body: { name: `fault ${request.key}`, prompt: "Built through faults" },
            });
          }
          expect(again.status, JSON.stringify(again.body)).toBe(201);
          if (request.status === 201) expect(again.body?.id).toBe(request.id);
        }
        const { rows: made } = await direct.query<{ id: string; name: string }>(
          "select id, name from projects where name like 'fault %'",
        );
        const names = new Map<string, number>();
        for (const row of made) names.set(row.name, (names.get(row.name) ?? 0) + 1);
        const acknowledged = sent.filter((request) => request.status === 201);
        const lostProjects = acknowledged.filter((request) => !made.some((row) => row.id === request.id)).length;
        const duplicated = [...names.values()].filter((count) => count > 1).length;

        // Every run finishes, then every recorded event reaches the receiver. (A run whose job failed
        // during the cut is retried with backoff: seconds to a few minutes after several failures.)
        const deadline = Date.now() + 240_000;
        for (;;) {
          const { rows } = await direct.query<{ n: string }>(
            "select count(*) as n from agent_runs where status in ('queued', 'running')",
          );
          // The endpoint takes `*`, which leaves out the chatty agent_run.progress (sent only to
          // endpoints that name it): every other event must arrive.
          const { rows: events } = await direct.query<{ id: string }>(
            "select id from events where type <> 'agent_run.progress'",
          );
          const missing = events.filter((event) => !receiver.received.has(event.id));
          if (Number(rows[0]!.n) === 0 && missing.length === 0) break;
          if (Date.now() > deadline) {
            recordResult({
              check: "faults, PostgreSQL and Redis cut, receiver down [postgres]",
              cases: sent.length * 2,
              faults,
              acknowledged: acknowledged.length + events.length,
              lost: lostProjects + missing.length,
              duplicated,
            });
            const { rows: runs } = await direct.query<{ status: string; n: string }>(
              "select status, count(*) as n from agent_runs group by status",
            );
            // Where the undelivered stand: their status, attempts, whether claimed, and when next due.
            const { rows: deliveries } = await direct.query(
              `select status, attempts, claimed_by is not null as claimed, count(*) as n, min(next_attempt_at) as next_from, max(next_attempt_at) as next_to, max(last_error) as an_error
               from webhook_deliveries where event_id = any($1) group by 1, 2, 3 order by 4 desc limit 10`,
              [missing.map((event) => event.id)],
            );
            const { rows: endpoints } = await direct.query(
              "select status, disabled_reason, failing_since from webhook_endpoints",
            );
            const warnings = server.logs.filter((line) => /"level":(4|5|6)\d/.test(line));
            throw new Error(
              `after 240 s: ${rows[0]!.n} runs unfinished (${JSON.stringify(runs)}), ${missing.length} of ${events.length} events not delivered; ` +
                `now ${new Date().toISOString()}, their deliveries: ${JSON.stringify(deliveries)}; the endpoint: ${JSON.stringify(endpoints)}; ` +
                `${warnings.length} warnings or errors logged (the whole log: ${serverLogFile}), the last: ${warnings.slice(-5).join("\n")}`,
            );
          }
          await sleep(250);
        }
        const { rows: events } = await direct.query<{ id: string }>(
          "select id from events where type <> 'agent_run.progress'",
        );
        // The margin this check has: how long the receiver's backlog took to drain.
        console.log(
          `faults: ${pendingWhenBack} deliveries pending when the receiver came back; every event delivered ${((Date.now() - receiverBack) / 1000).toFixed(1)} s later (${events.length} in all)`,
        );
        recordResult({
          check: "faults, PostgreSQL and Redis cut, receiver down [postgres]",
          cases: sent.length * 2,
          faults,
          acknowledged: acknowledged.length + events.length,
          lost: lostProjects,
          duplicated,
        });
        expect(lostProjects).toBe(0);
        expect(duplicated).toBe(0);
        expect(made.length).toBe(sent.length);
      }, 600_000);
    },
  );
}
