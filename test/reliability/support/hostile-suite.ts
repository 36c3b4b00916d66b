// The hostile-input suite, declared by hostile.test.ts and hostile-postgres.test.ts (npm test) and
// by hostile.long.test.ts and hostile-postgres.long.test.ts (npm run test:long) with different
// numbers of cases, one file per driver so that the two run on two workers at once. One server in this process per driver, one keep-alive
// client; after every case, one statement fingerprints every stored table. Then hostile pages: a
// second server, with its workers, takes each through a run and a deployment while others ask it
// for their own data.
//
// Replay a failure with the seed (and path) it prints: FC_SEED=… [FC_PATH=…] npx vitest run <file>.
// FC_RUNS overrides the number of cases; HOSTILE_TRACE=<file> logs each case and its time.
import { randomInt } from "node:crypto";
import { appendFileSync } from "node:fs";
import { isIP } from "node:net";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, hashSecret, revokeApiKey } from "../../../src/domain/keys.ts";
import { apiKeys, workspaces } from "../../../src/storage/schema.ts";
import { expectBody, expectStatus, type ApiClient } from "../../support/api-client.ts";
import type { StorageDriver } from "../../../src/storage/index.ts";
import { forEachDriver } from "../../support/database.ts";
import { final, pollUntil } from "../../support/poll.ts";
import { startTestServer, type TestServer } from "../../support/server.ts";
import { contractProblems } from "./conformance.ts";
import { hostileCases, hostileNames, hostilePages, type HostileCase, type HostileFixture } from "./hostile.ts";
import { hostileMcpCases, mcpProblems } from "./hostile-mcp.ts";
import { rawClient, type RawClient, type RawResponse } from "./http.ts";
import { startProbe } from "./probe.ts";
import { changedTables, snapshotter, type Snapshot } from "./snapshot.ts";
import { recordResult } from "./summary.ts";

export interface HostileSuiteOptions {
  /** Generated invalid requests, by driver. */
  readonly invalidCases: Readonly<Record<"pglite" | "postgres", number>>;
  /** Generated valid requests with odd text (created and read back), per driver. */
  readonly oddTextCases: number;
  /** Generated invalid MCP messages to POST /mcp, by driver. */
  readonly mcpCases: Readonly<Record<"pglite" | "postgres", number>>;
  /** The test file, for the replay command. */
  readonly file: string;
  /** The drivers it runs on (default: both). */
  readonly drivers?: readonly StorageDriver[];
}

export function hostileSuite(options: HostileSuiteOptions): void {
  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : randomInt(2 ** 31 - 1);
  const path = process.env.FC_PATH?.trim() || undefined;
  const runs = (count: number) => (process.env.FC_RUNS ? Number(process.env.FC_RUNS) : count);

  forEachDriver(
    "hostile input",
    (driver) => {
      let server: TestServer;
      let client: RawClient;
      let fixture: HostileFixture;
      let take: () => Promise<Snapshot>;

      beforeAll(async () => {
        server = await startTestServer(driver, {
          // Deliveries stay pending: no request of this suite ever leaves the machine. Names resolve
          // from a table, never from DNS.
          webhooks: {
            resolve: async (hostname) =>
              (hostileNames[hostname] ?? hostileNames[hostname.replace(/\.$/, "")] ?? ["93.184.216.36"]).map(
                (address) => ({ address, family: isIP(address) }),
              ),
          },
        });
        client = rawClient(server.url, 1);
        fixture = await makeFixture(server);
        take = (await snapshotter(server.storage)).take;
      });
      afterAll(async () => {
        client?.close();
        await server?.stop();
      });

      it(`refuses ${runs(options.invalidCases[driver.name])} generated invalid requests: never a 5xx, always the error shape, nothing stored changes`, async () => {
        console.log(
          `hostile input [${driver.name}]: seed ${seed}; replay: FC_SEED=${seed} npx vitest run ${options.file}`,
        );
        let tried = 0;
        let before = await take();
        const property = fc.asyncProperty(hostileCases(fixture), async (hostile) => {
          tried += 1;
          const started = performance.now();
          const response = await client.send(
            { method: hostile.method, path: hostile.path, headers: hostile.headers, body: hostile.body },
            { timeoutMs: 10_000 },
          );
          const problems = await contractProblems(hostile.method, hostile.path, response);
          const rightStatus =
            hostile.accepts === "4xx" ? response.status >= 400 && response.status < 500 : response.status < 500;
          if (!rightStatus) problems.push(`status ${response.status}, expected ${hostile.accepts}`);
          const after = await take();
          problems.push(...storedChanges(before, after, hostile, response.status));
          before = after;
          // HOSTILE_TRACE=<file>: one line per case with its time, to find what is slow.
          if (process.env.HOSTILE_TRACE) {
            const line = `${(performance.now() - started).toFixed(0)} ms ${response.status} ${hostile.kind} ${hostile.method} ${hostile.path.slice(0, 100)}`;
            appendFileSync(process.env.HOSTILE_TRACE, `${line}\n`);
          }
          if (problems.length > 0) throw new Error(report(hostile, response, problems));
        });
        try {
          await fc.assert(property, {
            seed,
            numRuns: runs(options.invalidCases[driver.name]),
            ...(path ? { path } : {}),
          });
        } finally {
          recordResult({
            check: `hostile input, invalid [${driver.name}]`,
            cases: tried,
            faults: 0,
            acknowledged: 0,
            lost: 0,
            duplicated: 0,
          });
        }
        await expectServing(server, client);
      }, 600_000);

      it(`refuses ${runs(options.mcpCases[driver.name])} generated invalid MCP messages in the protocol's shape: never a 5xx, nothing stored changes`, async () => {
        console.log(
          `hostile MCP messages [${driver.name}]: seed ${seed}; replay: FC_SEED=${seed} npx vitest run ${options.file}`,
        );
        let tried = 0;
        let before = await take();
        const property = fc.asyncProperty(hostileMcpCases(fixture), async (hostile) => {
          tried += 1;
          const response = await client.send(
            { method: hostile.method, path: hostile.path, headers: hostile.headers, body: hostile.body },
            { timeoutMs: 10_000 },
          );
          const { problems, status } = await mcpProblems(response);
          const after = await take();
          problems.push(...storedChanges(before, after, hostile, status));
          before = after;
          if (problems.length > 0) throw new Error(report(hostile, response, problems));
        });
        try {
          await fc.assert(property, { seed, numRuns: runs(options.mcpCases[driver.name]), ...(path ? { path } : {}) });
        } finally {
          recordResult({
            check: `hostile input, MCP messages [${driver.name}]`,
            cases: tried,
            faults: 0,
            acknowledged: 0,
            lost: 0,
            duplicated: 0,
          });
        }
        await expectServing(server, client);
      }, 600_000);

      it(`stores ${runs(options.oddTextCases)} generated valid texts with odd Unicode exactly as sent, and nothing else`, async () => {
        console.log(
          `hostile input, odd text [${driver.name}]: seed ${seed}; replay: FC_SEED=${seed} npx vitest run ${options.file}`,
        );
        const text = (maxLength: number) =>
          fc
            .string({
              unit: fc.oneof(
                fc.constantFrom(
                  "\u202e",
                  "\u200f",
                  "\u0301",
                  "\u200b",
                  "\ufeff",
                  "\u00a0",
                  "\ufffd",
                  "\u{1F4A9}",
                  "\u0085",
                  "\u001b",
                  "\u007f",
                  "'",
                  '"',
                  "\\",
                  "<",
                  "%",
                ),
                fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
              ),
              minLength: 1,
              maxLength,
            })
            .filter((value) => value.isWellFormed() && !value.includes("\u0000"))
            // PGlite decodes every text value with a TextDecoder that drops a leading U+FEFF (a byte
            // order mark): a name that starts with one reads back without it on the embedded default.
            // Reported, not ours to fix; PostgreSQL keeps it, and is held to it.
            .filter((value) => driver.name !== "pglite" || !value.startsWith("\ufeff"));
        let tried = 0;
        let acknowledged = 0;
        let lost = 0;
        let duplicated = 0;
        const property = fc.asyncProperty(text(100), text(300), fc.option(text(100)), async (name, prompt, rename) => {
          tried += 1;
          const before = await take();
          const created = await client.send(json("POST", "/v1/projects", fixture.key, { name, prompt }));
          expect(created.status, created.body.toString()).toBe(201);
          acknowledged += 1;
          const id = (created.json as { id: string }).id;
          const read = await client.send({
            method: "GET",
            path: `/v1/projects/${id}`,
            headers: { Authorization: `Bearer ${fixture.key}` },
          });
          const stored = read.json as { name?: string; prompt?: string };
          if (read.status !== 200) lost += 1;
          expect(read.status).toBe(200);
          expect({ name: stored.name, prompt: stored.prompt }).toEqual({ name, prompt });
          const after = await take();
          expect(
            changedTables(before, after).filter(
              (table) => !["projects", "agent_runs", "events", "webhook_deliveries"].includes(table),
            ),
          ).toEqual([]);
          const projects = (n: Snapshot) => Number(n.tables.projects!.split(":")[1]);
          if (projects(after) !== projects(before) + 1)
            duplicated += Math.max(0, projects(after) - projects(before) - 1);
          expect(projects(after)).toBe(projects(before) + 1);
          if (rename !== null) {
            const updated = await client.send(json("PATCH", `/v1/projects/${id}`, fixture.key, { name: rename }));
            expect(updated.status, updated.body.toString()).toBe(200);
            expect((updated.json as { name: string }).name).toBe(rename);
          }
        });
        try {
          await fc.assert(property, { seed, numRuns: runs(options.oddTextCases), ...(path ? { path } : {}) });
        } finally {
          recordResult({
            check: `hostile input, odd valid text [${driver.name}]`,
            cases: tried,
            faults: 0,
            acknowledged,
            lost,
            duplicated,
          });
        }
        await expectServing(server, client);
      }, 600_000);

      describe("hostile pages", () => {
        let busy: TestServer;
        beforeAll(async () => {
          busy = await startTestServer(driver, { workers: true });
        });
        afterAll(() => busy?.stop());

        it.each(hostilePages)(
          `takes an index.html of %s through a run and a deployment that end, answering others within ${LIVELY_MS} ms meanwhile`,
          async (name, page) => {
            const api = busy.as(await busy.createKey({ workspace: "tenant" }));
            const otherKey = await busy.createKey({ workspace: "bystander" });
            const project = await readyProject(api);
            await replaceIndexHtml(api, project, page);
            const { run, deployment, slowestMs } = await answering(busy.url, otherKey, async () => {
              const queued = await api.post(`/v1/projects/${project}/runs`, { prompt: "Add a footer" });
              expectStatus(queued, 202);
              const run = await pollUntil(api, `/v1/projects/${project}/runs/${queued.body.id}`, final, ENDS_WITHIN_MS);
              // Only a run that succeeded has the page in its snapshot to deploy.
              if (run.status !== "succeeded") return { run, deployment: undefined };
              const created = await api.post(`/v1/projects/${project}/deployments`, { run_id: run.id });
              expectStatus(created, 202);
              return {
                run,
                deployment: await pollUntil(
                  api,
                  `/v1/projects/${project}/deployments/${created.body.id}`,
                  final,
                  ENDS_WITHIN_MS,
                ),
              };
            });
            console.log(
              `hostile page [${driver.name}], ${name}: run ${run.status}, deployment ${deployment?.status ?? "not made"}; slowest answer to others ${slowestMs.toFixed(0)} ms`,
            );
            recordResult({
              check: `hostile pages, run and deployment [${driver.name}]`,
              cases: 2,
              faults: 0,
              acknowledged: 0,
              lost: 0,
              duplicated: 0,
            });
            expectEnded(run, ["succeeded", "failed"]);
            if (deployment) expectEnded(deployment, ["ready", "failed"]);
            expect(slowestMs, "the server answered others this late while it worked on the page").toBeLessThan(
              LIVELY_MS,
            );
          },
          120_000,
        );
      });
    },
    options.drivers,
  );
}

function json(method: string, path: string, key: string, body: unknown) {
  return {
    method,
    path,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
}

/**
 * What a refused request changed in storage: nothing, but for the answer a handler gave under the
 * case's own Idempotency-Key (a 400, 404 or 409 it decided is stored for replay, as the contract says).
 */
function storedChanges(before: Snapshot, after: Snapshot, hostile: HostileCase, status: number): string[] {
  const problems = changedTables(before, after).map((table) => `table ${table} changed`);
  for (const [key, value] of Object.entries(after.idempotency)) {
    if (before.idempotency[key] === value) continue;
    // A transport failure (413: the body was never read) is not stored, as the contract says.
    const accounted =
      key === hostile.idempotencyKey && value === String(status) && status >= 400 && status < 500 && status !== 413;
    if (!accounted)
      problems.push(
        `idempotency key ${JSON.stringify(key.slice(0, 60))} stored ${value} (the case's answer: ${status})`,
      );
  }
  for (const key of Object.keys(before.idempotency))
    if (!(key in after.idempotency)) problems.push(`idempotency key ${key} vanished`);
  return problems;
}

function report(hostile: HostileCase, response: RawResponse, problems: string[]): string {
  const clip = (text: string, length: number) =>
    text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text;
  const body = hostile.body === undefined ? "" : clip(hostile.body.toString("utf8"), 400);
  return [
    `${hostile.kind}: ${hostile.method} ${clip(hostile.path, 300)}`,
    `  headers: ${clip(JSON.stringify(hostile.headers), 600)}`,
    `  body: ${JSON.stringify(body)}`,
    `  answer: ${response.status} ${clip(response.body.toString("utf8"), 400)}`,
    ...problems.map((problem) => `  - ${problem}`),
  ].join("\n");
}

async function expectServing(server: TestServer, client: RawClient): Promise<void> {
  const health = await client.send({ method: "GET", path: "/healthz" });
  expect(health.status).toBe(200);
  const list = await server.client.get("/v1/projects");
  expect(list.status).toBe(200);
}

/** Two workspaces, keys of every kind, and one of each resource the contract's paths name. */
async function makeFixture(server: TestServer): Promise<HostileFixture> {
  const db = server.storage.db;
  const key = await server.createKey({ workspace: "acme", plan: "enterprise" });
  const revokedKey = await server.createKey({ workspace: "acme" });
  const [revoked] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(eq(apiKeys.secretHash, hashSecret(revokedKey)));
  await revokeApiKey(db, revoked!.id);
  const [acme] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.slug, "acme"));
  const past = new Date(Date.now() - 3_600_000);
  const expired = await createApiKey(
    db,
    { workspaceId: acme!.id, name: "expired", expires: new Date(past.getTime() + 1000) },
    past,
  );
  const api = server.as(key);
  const project = expectBody(await api.post("/v1/projects", { name: "Target", prompt: "A page to aim at" }), 201);
  expectBody(await api.post("/v1/projects", { name: "Second", prompt: "So that pages have a next cursor" }), 201);
  const form = new FormData();
  form.append("path", "docs/readme.txt");
  form.append("file", new Blob(["hello"], { type: "text/plain" }), "readme.txt");
  const file = expectBody(await api.request("POST", `/v1/projects/${project.id}/files`, { raw: form }), 201);
  const webhook = expectBody(
    await api.post("/v1/webhooks", { url: "https://public.hostile.test/hook", enabled_events: ["*"] }),
    201,
  );
  const delivery = expectBody(await api.post(`/v1/webhooks/${webhook.id}/test`), 202);
  const events = expectBody(await api.get("/v1/events?limit=1"), 200);
  const projects = expectBody(await api.get("/v1/projects?limit=1"), 200);
  const otherWorkspaceKey = await server.createKey({ workspace: "other" });
  const other = expectBody(
    await server.as(otherWorkspaceKey).post("/v1/projects", { name: "Not yours", prompt: "x" }),
    201,
  );
  return {
    key,
    revokedKey,
    expiredKey: expired.secret,
    billingOnlyKey: await server.createKey({ workspace: "acme", scopes: ["billing:read"] }),
    projectsReadKey: await server.createKey({ workspace: "acme", scopes: ["projects:read"] }),
    testKey: await server.createKey({ workspace: "acme", environment: "test" }),
    otherWorkspaceKey,
    ids: {
      project_id: project.id,
      run_id: project.latest_run_id!,
      // No run has succeeded (no workers), so no deployment exists: a well-formed id of none.
      deployment_id: "dpl_noSuchDeployment1",
      version_id: "ver_noSuchVersion0001",
      file_id: file.id,
      webhook_endpoint_id: webhook.id,
      delivery_id: delivery.id,
      event_id: events.data[0]!.id,
    },
    otherProjectId: other.id,
    takenPath: file.path,
    projectsCursor: projects.next_cursor!,
    eventsCursor: events.next_cursor!,
  };
}

/** How fast the server answers others while it runs and builds a hostile page (a stalled event loop takes seconds). */
const LIVELY_MS = 2_000;
/** How long a run or a deployment of a hostile page may take to end. */
const ENDS_WITHIN_MS = 60_000;

interface Ended {
  id: string;
  status: string;
  error: { code: string; message: string } | null;
}

function expectEnded(resource: Ended, statuses: string[]): void {
  expect(statuses).toContain(resource.status);
  // A failure says why.
  if (resource.status === "failed")
    expect(resource.error).toMatchObject({ code: expect.any(String), message: expect.stringMatching(/\w/) });
}

/** A project whose first run has succeeded; its id. */
async function readyProject(api: ApiClient): Promise<string> {
  const created = await api.post("/v1/projects", { name: "Hostile page", prompt: "A page" });
  expectStatus(created, 201);
  expect((await pollUntil(api, `/v1/projects/${created.body.id}`, final)).status).toBe("ready");
  return created.body.id;
}

/** Uploads `page` as the project's index.html in place of the one its first run wrote. */
async function replaceIndexHtml(api: ApiClient, project: string, page: string): Promise<void> {
  const files = expectBody(await api.get(`/v1/projects/${project}/files`), 200).data;
  const index = files.find((file) => file.path === "index.html")!;
  expect((await api.delete(`/v1/projects/${project}/files/${index.id}`)).status).toBe(204);
  const form = new FormData();
  form.append("path", "index.html");
  form.append("file", new Blob([page], { type: "text/html" }), "index.html");
  expect((await api.request("POST", `/v1/projects/${project}/files`, { raw: form })).status).toBe(201);
}

/**
 * Does `work` while another workspace asks the server for /healthz and its own projects, one
 * request after the other (from a thread of its own); answers what the work answered and the
 * slowest of those answers.
 */
async function answering<T>(url: string, otherKey: string, work: () => Promise<T>): Promise<T & { slowestMs: number }> {
  const probe = startProbe(url, [
    { path: "/healthz" },
    { path: "/v1/projects?limit=1", headers: { Authorization: `Bearer ${otherKey}` } },
  ]);
  const outcome = await work().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const report = await probe.stop();
  if ("error" in outcome) throw outcome.error;
  expect(report.failures).toEqual([]);
  expect(report.asked).toBeGreaterThan(0);
  return { ...outcome.value, slowestMs: report.slowestMs };
}
