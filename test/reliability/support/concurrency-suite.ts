// Concurrency: many requests on one resource at once, declared by concurrency.test.ts (npm test) and
// concurrency.long.test.ts (more rounds). Parallel updates of one project leave it as one of them
// made it, each counted once; parallel uploads and deletes of one path leave one file or none, whole,
// and no chunk behind; one Idempotency-Key sent to two replicas at once makes one project.
import type { ChildProcess } from "node:child_process";
import { createHash, randomBytes, randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectBody, expectStatus } from "../../support/api-client.ts";
import { forEachDriver, postgresDriver, type ProcessDatabase } from "../../support/database.ts";
import { serverEnvironment } from "../../support/environment.ts";
import { pbs, startServer } from "../../support/process.ts";
import { startTestServer, type TestServer } from "../../support/server.ts";
import { recordResult } from "./summary.ts";

export interface ConcurrencySuiteOptions {
  /** Rounds of each check (each round: one burst of parallel requests). */
  readonly rounds: number;
}

export function concurrencySuite(options: ConcurrencySuiteOptions): void {
  forEachDriver("concurrency on one resource", (driver) => {
    let server: TestServer;
    let key: string;
    beforeAll(async () => {
      server = await startTestServer(driver);
      key = await server.createKey({ workspace: "race", plan: "enterprise" });
    });
    afterAll(() => server?.stop());

    it("leaves a project updated by parallel PATCHes as the last of them made it, each one recorded once", async () => {
      const api = server.as(key);
      let requests = 0;
      let acknowledged = 0;
      let lost = 0;
      for (let round = 0; round < options.rounds; round++) {
        const project = expectBody(
          await api.post("/v1/projects", { name: "Contested", prompt: "Updated from everywhere" }),
          201,
        );
        const agents = ["coding-agent-1", "coding-agent-2", "coding-agent-3"] as const;
        const visibilities = ["private", "unlisted", "public"] as const;
        const updates = Array.from({ length: 24 }, (_, i) => ({
          name: `update ${round}-${i}`,
          agent: agents[i % 3]!,
          visibility: visibilities[randomInt(3)]!,
        }));
        const answers = await Promise.all(updates.map((update) => api.patch(`/v1/projects/${project.id}`, update)));
        requests += updates.length;
        const bodies = answers.map((answer) => expectBody(answer, 200));
        acknowledged += answers.length;
        // Each answer is the project just after its own update.
        bodies.forEach((body, i) => expect(body).toMatchObject(updates[i]!));
        const final = expectBody(await api.get(`/v1/projects/${project.id}`), 200);
        const last = bodies.find((body) => body.name === final.name);
        expect(last, "the final name is one an update set").toBeDefined();
        expect({ agent: final.agent, visibility: final.visibility }).toEqual({
          agent: last!.agent,
          visibility: last!.visibility,
        });
        const latest = Math.max(...bodies.map((body) => Date.parse(body.updated_at!)));
        expect(Date.parse(final.updated_at!)).toBe(latest);
        const events = await server.storage.db.execute<{ n: number }>(
          sql`select count(*)::int as n from events where type = 'project.updated' and data->>'id' = ${project.id}`,
        );
        const recorded = events.rows[0]!.n;
        if (recorded < updates.length) lost += updates.length - recorded;
        expect(recorded, "one project.updated event per update").toBe(updates.length);
      }
      recordResult({
        check: `concurrency, parallel updates [${driver.name}]`,
        cases: requests,
        faults: 0,
        acknowledged,
        lost,
        duplicated: 0,
      });
    }, 120_000);

    it("leaves one whole file or none at a path raced by parallel uploads and deletes, and no chunk behind", async () => {
      const api = server.as(key);
      const project = (await api.post("/v1/projects", { name: "Raced", prompt: "One path, many writers" })).body as {
        id: string;
      };
      let requests = 0;
      let acknowledged = 0;
      let lost = 0;
      let duplicated = 0;
      for (let round = 0; round < options.rounds; round++) {
        const contents = Array.from({ length: 6 }, () => randomBytes(randomInt(1, 600 * 1024)));
        const created: { id: string; sha256: string }[] = [];
        const deleted = new Set<string>();
        const upload = async (content: Buffer) => {
          const form = new FormData();
          form.append("path", "race/one.bin");
          form.append("file", new Blob([new Uint8Array(content)]), "one.bin");
          const answer = await api.request("POST", `/v1/projects/${project.id}/files`, { raw: form });
          requests += 1;
          expect([201, 409], JSON.stringify(answer.body)).toContain(answer.status);
          if (answer.status === 201) {
            expect(answer.body.sha256).toBe(createHash("sha256").update(content).digest("hex"));
            created.push(answer.body);
            // Delete it again at once, half of the time, racing the other uploads.
            if (Math.random() < 0.5) {
              const removed = await api.delete(`/v1/projects/${project.id}/files/${answer.body.id}`);
              requests += 1;
              expect([204, 404]).toContain(removed.status);
              if (removed.status === 204) deleted.add(answer.body.id);
            }
          }
        };
        const deleteWhatIsThere = async () => {
          for (let i = 0; i < 3; i++) {
            const list = await api.get(`/v1/projects/${project.id}/files`);
            expectStatus(list, 200);
            for (const file of list.body.data as { id: string; path: string }[]) {
              if (file.path !== "race/one.bin") continue;
              const removed = await api.delete(`/v1/projects/${project.id}/files/${file.id}`);
              requests += 1;
              expect([204, 404]).toContain(removed.status);
              if (removed.status === 204) deleted.add(file.id);
            }
          }
        };
        await Promise.all([...contents.map(upload), deleteWhatIsThere()]);
        acknowledged += created.length + deleted.size;
        const rows = await server.storage.db.execute<{ id: string; sha256: string }>(
          sql`select id, sha256 from files where project_id = ${project.id} and path = 'race/one.bin'`,
        );
        if (rows.rows.length > 1) duplicated += rows.rows.length - 1;
        expect(rows.rows.length, "files at the raced path").toBeLessThanOrEqual(1);
        const survivor = rows.rows[0];
        const live = created.filter((file) => !deleted.has(file.id));
        if (survivor) {
          expect(
            live.map((file) => file.id),
            "the file there is one an upload acknowledged and no delete removed",
          ).toContain(survivor.id);
        } else if (live.length > 0) {
          lost += live.length;
        }
        expect(live.length, "acknowledged uploads not deleted").toBe(survivor ? 1 : 0);
        expect(
          await orphans(server),
          "pending uploads, chunks without a committed file, files whose chunks do not match",
        ).toEqual({ pending: 0, orphanChunks: 0, corrupt: 0 });
        // Clear the path for the next round.
        if (survivor) expect((await api.delete(`/v1/projects/${project.id}/files/${survivor.id}`)).status).toBe(204);
      }
      recordResult({
        check: `concurrency, uploads and deletes of one path [${driver.name}]`,
        cases: requests,
        faults: 0,
        acknowledged,
        lost,
        duplicated,
      });
    }, 120_000);
  });

  describe.skipIf(postgresDriver.skipReason !== undefined)(
    `concurrency: one Idempotency-Key sent to two replicas at once${postgresDriver.skipReason ? ` (skipped: ${postgresDriver.skipReason})` : ""}`,
    () => {
      let database: ProcessDatabase;
      const children: ChildProcess[] = [];
      let urls: string[] = [];
      let secret: string;
      beforeAll(async () => {
        database = await postgresDriver.forProcess();
        const env = serverEnvironment(database.env);
        const replicas = await Promise.all([startServer(env), startServer(env)]);
        children.push(...replicas.map((replica) => replica.child));
        urls = replicas.map((replica) => replica.url);
        await pbs(["workspaces", "create", "--slug", "twins", "--plan", "enterprise"], database.env);
        secret = (await pbs(["keys", "create", "--workspace", "twins", "--name", "t"], database.env))
          .trimEnd()
          .split("\n")
          .at(-1)!;
      });
      afterAll(async () => {
        for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
        await database?.dispose();
      });

      it("makes one project per key, whichever replica answers", async () => {
        // Sent again after Retry-After while the key's rate limit says so.
        const create = async (url: string, key: string) => {
          for (;;) {
            const answer = await send(url, key);
            if (answer.status !== 429) return answer;
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        };
        const send = (url: string, key: string) =>
          fetch(`${url}/v1/projects`, {
            method: "POST",
            headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json", "Idempotency-Key": key },
            body: JSON.stringify({ name: `twin ${key}`, prompt: "Sent twice" }),
          }).then(async (response) => ({
            status: response.status,
            body: (await response.json()) as { id?: string; error?: { code: string } },
          }));
        const keys = Array.from({ length: 10 * options.rounds }, () => `twin-${randomBytes(9).toString("base64url")}`);
        let requests = 0;
        const ids = new Map<string, string>();
        for (const key of keys) {
          const answers = await Promise.all(urls.map((url) => create(url, key)));
          requests += answers.length;
          for (const answer of answers) {
            expect([201, 409], JSON.stringify(answer.body)).toContain(answer.status);
            if (answer.status === 409) expect(answer.body.error?.code).toBe("idempotency_key_in_use");
          }
          const made = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.id!);
          expect(made.length).toBeGreaterThan(0);
          expect(new Set(made).size, `${key} answered two different projects`).toBe(1);
          ids.set(key, made[0]!);
        }
        // Sent again to each replica: the same project, replayed.
        for (const [key, id] of ids) {
          for (const url of urls) {
            const again = await create(url, key);
            requests += 1;
            expect(again).toMatchObject({ status: 201, body: { id } });
          }
        }
        const storage = await database.open();
        try {
          const counts = await storage.db.execute<{ name: string; n: number }>(
            sql`select name, count(*)::int as n from projects group by name`,
          );
          const duplicated = counts.rows.filter((row) => row.n > 1).length;
          const lost = keys.filter((key) => !counts.rows.some((row) => row.name === `twin ${key}`)).length;
          recordResult({
            check: "concurrency, one key to two replicas [postgres]",
            cases: requests,
            faults: 0,
            acknowledged: keys.length,
            lost,
            duplicated,
          });
          expect(duplicated).toBe(0);
          expect(lost).toBe(0);
          expect(counts.rows.length).toBe(keys.length);
        } finally {
          await storage.close();
        }
      }, 120_000);
    },
  );
}

/** Uploads left pending, chunks without a committed file, and committed files whose chunks do not hold their bytes. */
async function orphans(server: TestServer): Promise<{ pending: number; orphanChunks: number; corrupt: number }> {
  const result = await server.storage.db.execute<{ pending: number; orphan_chunks: number; corrupt: number }>(sql`
    select (select count(*)::int from files where path like '~pending/%') as pending,
           (select count(*)::int from file_chunks c where not exists (select 1 from files f where f.id = c.file_id and f.path not like '~pending/%')) as orphan_chunks,
           (select count(*)::int from files f cross join lateral (
              select coalesce(sum(length(c.data)), 0) as bytes, count(*) as n, coalesce(max(c.seq), -1) as last,
                     encode(sha256(coalesce(string_agg(c.data, ''::bytea order by c.seq), ''::bytea)), 'hex') as digest
              from file_chunks c where c.file_id = f.id) chunks
            where f.path not like '~pending/%' and (chunks.bytes <> f.size_bytes or chunks.digest <> f.sha256 or chunks.last <> chunks.n - 1)) as corrupt`);
  const row = result.rows[0]!;
  return { pending: row.pending, orphanChunks: row.orphan_chunks, corrupt: row.corrupt };
}
