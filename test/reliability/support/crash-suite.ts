// kill -9 in the middle of a stream of creates and uploads, on a real server process (src/main.ts),
// then a start on the same data, as many times as asked. Declared by crash.test.ts and
// crash-postgres.test.ts (npm test), crash.long.test.ts and crash-postgres.long.test.ts (npm run
// test:long): one file per driver, so that the two run on two workers at once.
//
// Every request carries an Idempotency-Key and a name or path made from it, so afterwards the
// stored rows say which request made them. After each restart every key is sent again, the same
// request byte for byte: an answered one must be replayed with the same resource, one whose answer
// was lost with the process is made now or replayed; none may make a second resource. At the end
// (after a graceful stop) the database is read directly: every acknowledged project and file is
// there, each file's chunks hold exactly its bytes (count, order, size, SHA-256), no upload is left
// pending beyond those cut by a kill (on the embedded default: none, its next start removes them),
// and no chunk outlives its file. Meanwhile every queued agent run must finish.
import type { ChildProcess } from "node:child_process";
import { createHash, randomBytes, randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { purgeAbandonedUploads } from "../../../src/domain/files.ts";
import type { Storage, StorageDriver } from "../../../src/storage/index.ts";
import { expectStatus, type StatusAndBodyTo } from "../../support/api-client.ts";
import { forEachDriver, type ProcessDatabase } from "../../support/database.ts";
import { serverEnvironment } from "../../support/environment.ts";
import { pbs, startServer } from "../../support/process.ts";
import { rawClient } from "./http.ts";
import { recordResult } from "./summary.ts";

export interface CrashSuiteOptions {
  /** kill -9 and restart cycles per driver. */
  readonly cycles: number;
  /**
   * Wait out the claim's lease (about a minute) and send again the keys whose request the kill cut
   * while it held the claim, to see them made once. Without it they are checked in the database:
   * claimed, and nothing made under them.
   */
  readonly waitForLeases: boolean;
  /** The drivers it runs on (default: both). */
  readonly drivers?: readonly StorageDriver[];
}

/** The answer to a create or an upload, read over raw HTTP: status, JSON body, and whether it was a replay. */
type Answer = (StatusAndBodyTo<"POST", "/v1/projects"> | StatusAndBodyTo<"POST", "/v1/projects/{project_id}/files">) & {
  replayed: boolean;
};

interface Sent {
  readonly key: string;
  readonly kind: "project" | "upload";
  /** For an upload: the project it goes to, its path and bytes. */
  readonly projectId?: string;
  readonly path?: string;
  readonly bytes?: Buffer;
  outcome: "pending" | "acknowledged" | "unknown" | "in progress at the crash";
  /** A kill cut its first try (it may have been made since, by a retry). */
  cut?: boolean;
  /** The id answered (201). */
  id?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** IDEMPOTENCY_LOCK_TIMEOUT of the servers: how long a claim a kill cut stays in use. */
const LOCK_TIMEOUT_MS = 5_000;

export function crashSuite(options: CrashSuiteOptions): void {
  forEachDriver(
    "crash: kill -9 during creates and uploads",
    (driver) => {
      let database: ProcessDatabase;
      const children: ChildProcess[] = [];

      beforeAll(async () => {
        database = await driver.forProcess();
      });
      afterAll(async () => {
        for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        await database?.dispose();
      });

      it(`loses no acknowledged write, duplicates nothing and leaves no orphan over ${options.cycles} kill -9 cycle(s)`, async () => {
        const env = { ...serverEnvironment(database.env), IDEMPOTENCY_LOCK_TIMEOUT: `${LOCK_TIMEOUT_MS}ms` };
        const start = async () => {
          const server = await startServer(env);
          children.push(server.child);
          return server;
        };
        let server = await start();
        let http = rawClient(server.url, 8);
        await pbs(["workspaces", "create", "--slug", "crash", "--plan", "enterprise"], database.env);
        // API keys of one workspace, taken in turn (an Idempotency-Key belongs to the workspace, so any
        // of them may send it again): four times one key's rate limit.
        const secrets: string[] = [];
        for (let i = 0; i < 4; i++)
          secrets.push(
            (await pbs(["keys", "create", "--workspace", "crash", "--name", `crash ${i}`], database.env))
              .trimEnd()
              .split("\n")
              .at(-1)!,
          );
        const secret = secrets[0]!;
        const ledger: Sent[] = [];
        let kills = 0;
        let requests = 0;

        /** Sends the request of `sent`, again after Retry-After while the rate limit answers 429 (as a client would). */
        const send = async (sent: Sent): Promise<Answer> => {
          for (;;) {
            const answer = await sendOnce(sent);
            if (answer.status !== 429) return answer;
            await sleep(1000);
          }
        };
        const sendOnce = async (sent: Sent): Promise<Answer> => {
          requests += 1;
          const headers: Record<string, string> = {
            Authorization: `Bearer ${secrets[requests % secrets.length]}`,
            "Idempotency-Key": sent.key,
          };
          let body: string | Buffer;
          let path: string;
          if (sent.kind === "project") {
            path = "/v1/projects";
            headers["Content-Type"] = "application/json";
            body = JSON.stringify({ name: `crash ${sent.key}`, prompt: "A page that survives a crash" });
          } else {
            path = `/v1/projects/${sent.projectId}/files`;
            const boundary = "crashBoundary";
            headers["Content-Type"] = `multipart/form-data; boundary=${boundary}`;
            body = Buffer.concat([
              Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\n${sent.path}\r\n`),
              Buffer.from(
                `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
              ),
              sent.bytes!,
              Buffer.from(`\r\n--${boundary}--\r\n`),
            ]);
          }
          // Raw HTTP rather than fetch: an answer the server gives before reading the whole body (a
          // claim in use) is read, where fetch fails on the broken write.
          const response = await http.send({ method: "POST", path, headers, body }, { timeoutMs: 20_000 });
          return {
            status: response.status,
            body: response.json,
            replayed: response.headers["idempotent-replayed"] === "true",
          } as Answer;
        };

        for (let cycle = 0; cycle < options.cycles; cycle++) {
          // The stream: four clients creating projects and uploading files to acknowledged ones.
          let stopped = false;
          let acknowledged = 0;
          const client = async () => {
            while (!stopped) {
              const projects = ledger.filter((sent) => sent.kind === "project" && sent.outcome === "acknowledged");
              const upload = projects.length > 0 && Math.random() < 0.35;
              const key = `crash-${cycle}-${randomBytes(9).toString("base64url")}`;
              const sent: Sent = upload
                ? {
                    key,
                    kind: "upload",
                    projectId: projects[randomInt(projects.length)]!.id!,
                    path: `crash/${key}.bin`,
                    bytes: randomBytes(randomInt(1, 700 * 1024)),
                    outcome: "pending",
                  }
                : { key, kind: "project", outcome: "pending" };
              ledger.push(sent);
              try {
                const answer = await send(sent);
                expectStatus(answer, 201, JSON.stringify(answer.body));
                sent.outcome = "acknowledged";
                sent.id = answer.body.id;
                acknowledged += 1;
              } catch (error) {
                if (!stopped && (error as Error).name === "AssertionError") throw error; // else: the server died under it
                sent.outcome = "unknown";
                sent.cut = true;
                if (!stopped) await sleep(20);
              }
            }
          };
          // A failing client stops the stream; its error is thrown once the stream is over.
          let failure: { error: unknown } | undefined;
          const clients = Array.from({ length: 4 }, () =>
            client().catch((error: unknown) => {
              failure ??= { error };
              stopped = true;
            }),
          );
          const deadline = Date.now() + 20_000;
          while (acknowledged < 12 && Date.now() < deadline && !stopped) await sleep(20);
          await sleep(randomInt(0, 250));
          const killed = server.child;
          killed.kill("SIGKILL");
          kills += 1;
          await new Promise((resolve) => killed.once("exit", resolve));
          stopped = true;
          await Promise.all(clients);
          if (failure) throw failure.error;
          expect(acknowledged, "acknowledged before the kill").toBeGreaterThan(0);

          server = await start();
          http.close();
          http = rawClient(server.url, 8);
          // Every key of this cycle again (and, after the last cycle, every key of all of them): an
          // acknowledged one replays its resource; one whose answer died with the process is made
          // now, or replayed if it had been made; a claim the kill left is in use.
          const last = cycle === options.cycles - 1;
          for (const sent of ledger.filter(
            (entry) =>
              entry.outcome !== "in progress at the crash" && (last || entry.key.startsWith(`crash-${cycle}-`)),
          )) {
            const answer = await send(sent);
            if (answer.status === 409 && answer.body.error.code === "idempotency_key_in_use") {
              expect(sent.outcome, `${sent.key} was acknowledged, yet its key is in use`).not.toBe("acknowledged");
              sent.outcome = "in progress at the crash";
              continue;
            }
            expectStatus(answer, 201, `${sent.key}: ${JSON.stringify(answer.body)}`);
            if (sent.outcome === "acknowledged") {
              expect(answer.replayed, sent.key).toBe(true);
              expect(answer.body.id, `${sent.key} replayed another resource`).toBe(sent.id);
            } else {
              sent.outcome = "acknowledged";
              sent.id = answer.body.id;
            }
          }
        }

        if (options.waitForLeases) {
          // The claims the kills cut free themselves a lease after their last renewal: then each is made once.
          await sleep(LOCK_TIMEOUT_MS + 2_000);
          for (const sent of ledger.filter((entry) => entry.outcome === "in progress at the crash")) {
            const answer = await send(sent);
            expectStatus(answer, 201, `${sent.key}: ${JSON.stringify(answer.body)}`);
            sent.outcome = "acknowledged";
            sent.id = answer.body.id;
          }
        }

        // Every queued run finishes (a run the kill cut is retried: at the next start on the embedded
        // default, once its heartbeat lapses on PostgreSQL).
        const unfinished = async () => {
          let count = 0;
          for (const status of ["queued", "building"]) {
            let cursor: string | null = null;
            do {
              const page: { data: unknown[]; next_cursor: string | null } = await fetch(
                `${server.url}/v1/projects?limit=100&status=${status}${cursor ? `&cursor=${cursor}` : ""}`,
                { headers: { Authorization: `Bearer ${secret}` } },
              ).then((response) => response.json() as Promise<{ data: unknown[]; next_cursor: string | null }>);
              count += page.data.length;
              cursor = page.next_cursor;
            } while (cursor);
          }
          return count;
        };
        const runsDeadline = Date.now() + 90_000;
        while ((await unfinished()) > 0) {
          if (Date.now() > runsDeadline)
            throw new Error(
              `${await unfinished()} projects still have a run queued or building 90 s after the last restart`,
            );
          await sleep(500);
        }

        // A graceful stop, then the database as it is.
        http.close();
        const stopping = server.child;
        stopping.kill("SIGTERM");
        await new Promise((resolve) => stopping.once("exit", resolve));
        const storage = await database.open();
        try {
          const found = await inventory(storage, ledger);
          const checked = ledger.filter((sent) => sent.outcome === "acknowledged").length;
          recordResult({
            check: `crash, kill -9 [${driver.name}]`,
            cases: requests,
            faults: kills,
            acknowledged: checked,
            lost: found.lost.length,
            duplicated: found.duplicated.length,
          });
          expect(found.lost, "acknowledged writes not found").toEqual([]);
          expect(found.duplicated, "keys that made two resources").toEqual([]);
          expect(found.madeWhileInProgress, "keys still claimed whose resource exists").toEqual([]);
          expect(found.corruptFiles, "files whose chunks do not hold their bytes").toEqual([]);
          expect(found.chunksWithoutFile).toBe(0);
          const cutUploads = ledger.filter((sent) => sent.kind === "upload" && sent.cut).length;
          if (driver.name === "pglite") {
            expect(found.pendingUploads, "uploads left pending after a restart of the embedded database").toBe(0);
          } else {
            // Another replica may be uploading: housekeeping removes pending uploads an hour old.
            expect(found.pendingUploads, "uploads pending, beyond those a kill cut").toBeLessThanOrEqual(cutUploads);
            await purgeAbandonedUploads(storage.db, new Date(Date.now() + 1000));
            const after = await inventory(storage, ledger);
            expect([after.pendingUploads, after.pendingChunks]).toEqual([0, 0]);
          }
        } finally {
          await storage.close();
        }
      }, 600_000);
    },
    options.drivers,
  );
}

/** What the database holds for the ledger's requests. */
async function inventory(storage: Storage, ledger: readonly Sent[]) {
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    (await storage.db.execute<T & Record<string, unknown>>(query)).rows as T[];
  const projects = await rows<{ id: string; name: string }>(
    sql`select id, name from projects where name like 'crash %'`,
  );
  const files = await rows<{ id: string; path: string; sha256: string; size: number }>(
    sql`select id, path, sha256, size_bytes::int as size from files where path like 'crash/%'`,
  );
  const byName = Map.groupBy(projects, (project) => project.name.slice("crash ".length));
  const byPath = Map.groupBy(files, (file) => file.path);
  const lost: string[] = [];
  const duplicated: string[] = [];
  const madeWhileInProgress: string[] = [];
  for (const sent of ledger) {
    const made = sent.kind === "project" ? (byName.get(sent.key) ?? []) : (byPath.get(sent.path!) ?? []);
    if (made.length > 1) duplicated.push(sent.key);
    if (sent.outcome === "acknowledged") {
      const match = made.find((row) => row.id === sent.id);
      if (!match) lost.push(`${sent.kind} ${sent.key} (${sent.id})`);
      else if (sent.kind === "upload") {
        const file = match as { sha256: string; size: number };
        if (file.size !== sent.bytes!.length || file.sha256 !== createHash("sha256").update(sent.bytes!).digest("hex"))
          lost.push(`content of ${sent.id}`);
      }
    }
    if (sent.outcome === "in progress at the crash" && made.length > 0) madeWhileInProgress.push(sent.key);
  }
  // Each committed file's chunks: numbered 0…n-1, their bytes its size and its SHA-256.
  const corruptFiles = await rows<{ id: string }>(sql`
    select f.id from files f
    cross join lateral (
      select count(*) as n, coalesce(max(c.seq), -1) as last, coalesce(sum(length(c.data)), 0) as bytes,
             encode(sha256(coalesce(string_agg(c.data, ''::bytea order by c.seq), ''::bytea)), 'hex') as digest
      from file_chunks c where c.file_id = f.id
    ) chunks
    where f.path not like '~pending/%'
      and (chunks.bytes <> f.size_bytes or chunks.digest <> f.sha256 or chunks.last <> chunks.n - 1)`);
  const [counts] = await rows<{ pending: number; pending_chunks: number; orphans: number }>(sql`
    select (select count(*)::int from files where path like '~pending/%') as pending,
           (select count(*)::int from file_chunks c join files f on f.id = c.file_id where f.path like '~pending/%') as pending_chunks,
           (select count(*)::int from file_chunks c where not exists (select 1 from files f where f.id = c.file_id)) as orphans`);
  return {
    lost,
    duplicated,
    madeWhileInProgress,
    corruptFiles: corruptFiles.map((file) => file.id),
    chunksWithoutFile: counts!.orphans,
    pendingUploads: counts!.pending,
    pendingChunks: counts!.pending_chunks,
  };
}
