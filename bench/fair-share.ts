// The fair share's part of `npm run bench` (also alone: `node bench/fair-share.ts [pglite|postgres]`):
// on a fresh server of its own (`node src/main.ts`, the built-in agent, the default AGENT_CONCURRENCY),
// a tenant's create → ready of a project, and of a deployment, alone, then while another tenant's
// queue is deep (60 projects flood in at once, then 40 deployments), both tenants on the enterprise
// plan. The ratio of the two is what the flood costs the other tenant: first in, first out it grows
// with the flood's length; with a fair share it stays about one turn.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";

export interface Latencies {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
}

export interface FairShareResult {
  readonly runs: { alone: Latencies; behindFlood: Latencies; flood: number; floodMs: number };
  readonly builds: { alone: Latencies; behindFlood: Latencies; flood: number; floodMs: number };
}

const root = resolve(import.meta.dirname, "..");
const SAMPLES = 8;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!);
  return { count: sorted.length, p50: at(0.5), p99: at(0.99) };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** Runs the part on a fresh database of `driver`: PGlite in a temp directory, or a new PostgreSQL database. */
export async function benchFairShare(driver: "pglite" | "postgres", pgUrl: string): Promise<FairShareResult> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-fair-share-"));
  const env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn", HOST: "127.0.0.1" };
  const database = `bench_fair_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  if (driver === "postgres") {
    await admin.connect();
    await admin.query(`create database ${database}`);
    const url = new URL(pgUrl);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
  }
  let child: ChildProcess | undefined;
  try {
    const port = await freePort();
    Object.assign(env, { PORT: String(port), APPS_PORT: String(await freePort()) });
    child = spawn(process.execPath, ["src/main.ts"], { cwd: root, env: { ...process.env, ...env }, stdio: "ignore" });
    const base = `http://127.0.0.1:${port}`;
    for (let tries = 0; ; tries++) {
      if ((await fetch(`${base}/healthz`).catch(() => undefined))?.ok) break;
      if (tries > 1200) throw new Error("the server did not start");
      await sleep(50);
    }
    const pbs = (...argv: string[]) => {
      const done = spawnSync(process.execPath, ["src/cli/pbs.ts", ...argv, "--json"], {
        cwd: root,
        env: { ...process.env, ...env },
        encoding: "utf8",
      });
      if (done.status !== 0) throw new Error(`pbs ${argv.join(" ")}: ${done.stderr}`);
      return JSON.parse(done.stdout) as { secret?: string };
    };
    // Keys enough that polling every 50 ms stays inside the plan's 1,000 requests a minute per key.
    const keysOf = (workspace: string) => {
      pbs("workspaces", "create", "--slug", workspace, "--plan", "enterprise");
      return [0, 1, 2, 3].map((i) => pbs("keys", "create", "--workspace", workspace, "--name", `bench ${i}`).secret!);
    };
    const flood = api(base, keysOf("flood"));
    const other = api(base, keysOf("other"));

    const projectLatency = async (client: Api) => {
      const started = performance.now();
      const project = await client.post("/v1/projects", { name: "Fair share", prompt: "A page that says hello." });
      await until(client, `/v1/projects/${project.id}`);
      return { ms: performance.now() - started, id: project.id };
    };
    const deploymentLatency = async (client: Api, projectId: string, target: string) => {
      const started = performance.now();
      const deployment = await client.post(`/v1/projects/${projectId}/deployments`, { target });
      await until(client, `/v1/projects/${projectId}/deployments/${deployment.id}`);
      return performance.now() - started;
    };

    // Runs: alone, then behind a flood of 60 queued at once (one sample at a time, each its own project).
    const runsAlone: number[] = [];
    const projects: string[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const { ms, id } = await projectLatency(other);
      runsAlone.push(ms);
      projects.push(id);
    }
    const floodStarted = performance.now();
    const floodProjects = await Promise.all(
      Array.from({ length: 60 }, (_, i) => flood.post("/v1/projects", { name: `Flood ${i}`, prompt: "A page." })),
    );
    const runsBehind: number[] = [];
    for (let i = 0; i < SAMPLES; i++) runsBehind.push((await projectLatency(other)).ms);
    await drained(flood, "/v1/projects?limit=100", 60);
    const runFloodMs = performance.now() - floodStarted;

    // Builds: alone, then behind 40 (20 of the flood's projects, two targets each).
    const buildsAlone: number[] = [];
    for (let i = 0; i < SAMPLES; i++) buildsAlone.push(await deploymentLatency(other, projects[i]!, "preview"));
    const buildFloodStarted = performance.now();
    const floodDeployments = await Promise.all(
      floodProjects.slice(0, 20).flatMap((project) =>
        ["production", "preview"].map(async (target) => ({
          project: project.id,
          id: (await flood.post(`/v1/projects/${project.id}/deployments`, { target })).id,
        })),
      ),
    );
    const buildsBehind: number[] = [];
    for (let i = 0; i < SAMPLES; i++) buildsBehind.push(await deploymentLatency(other, projects[i]!, "production"));
    for (const each of floodDeployments) await drained(flood, `/v1/projects/${each.project}/deployments`, 0);
    const buildFloodMs = performance.now() - buildFloodStarted;

    return {
      runs: { alone: latencies(runsAlone), behindFlood: latencies(runsBehind), flood: 60, floodMs: runFloodMs },
      builds: {
        alone: latencies(buildsAlone),
        behindFlood: latencies(buildsBehind),
        flood: 40,
        floodMs: buildFloodMs,
      },
    };
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child!.once("exit", done));
      child.kill("SIGTERM");
      await exited;
    }
    if (driver === "postgres") {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Api {
  post(path: string, body: object): Promise<{ id: string }>;
  get(path: string): Promise<{ status: string; data?: { status: string }[] }>;
}

function api(base: string, keys: readonly string[]): Api {
  let turn = 0;
  const call = async (method: string, path: string, body?: object) => {
    const response = await fetch(base + path, {
      method,
      headers: { Authorization: `Bearer ${keys[turn++ % keys.length]}`, "Content-Type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await response.json()) as never;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return { post: (path, body) => call("POST", path, body), get: (path) => call("GET", path) };
}

const pending = ["queued", "running", "building"];

/** Polls `path` every 50 ms until its status is final; it must be ready. */
async function until(client: Api, path: string): Promise<void> {
  for (;;) {
    const { status } = await client.get(path);
    if (status === "ready") return;
    if (!pending.includes(status)) throw new Error(`${path} ended ${status}`);
    await sleep(50);
  }
}

/** Polls the list `path` every 250 ms until none of its items is pending (and it has at least `count`). */
async function drained(client: Api, path: string, count: number): Promise<void> {
  for (;;) {
    const items = (await client.get(path)).data ?? [];
    if (items.length >= count && !items.some((item) => pending.includes(item.status))) return;
    await sleep(250);
  }
}

/** The part's section of bench/RESULTS.md. */
export function fairShareSection(results: ReadonlyArray<{ driver: string; result: FairShareResult }>): string[] {
  const lines = [
    "## Fair share: another tenant's create → ready behind a flood (server only)",
    "",
    "| driver | work | flood (another tenant's, queued at once) | alone p50 / p99 ms | behind the flood p50 / p99 ms | ÷ alone (p50) | the flood's own time s |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const { driver, result } of results) {
    for (const [work, each] of [
      ["project (its run)", result.runs],
      ["deployment (its build)", result.builds],
    ] as const) {
      lines.push(
        `| ${driver} | ${work} | ${each.flood} | ${each.alone.p50} / ${each.alone.p99} | ${each.behindFlood.p50} / ${each.behindFlood.p99} | ${(each.behindFlood.p50 / each.alone.p50).toFixed(2)}× | ${(each.floodMs / 1000).toFixed(1)} |`,
      );
    }
  }
  lines.push(
    "",
    `A fresh server (\`node src/main.ts\`, the built-in agent, AGENT_CONCURRENCY 2, BUILD_WORKERS 1), two enterprise workspaces. Each row: ${SAMPLES} of the other tenant's projects (or deployments), one at a time, alone; then the flood is queued at once and ${SAMPLES} more are timed, one at a time, while it drains. First in, first out, each would wait for the whole flood (its own time, last column); with the fair share it waits about one turn.`,
    "",
  );
  return lines;
}

if (import.meta.main) {
  const drivers = (process.argv[2] ?? "pglite,postgres").split(",") as Array<"pglite" | "postgres">;
  const pgUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const results = [];
  for (const driver of drivers) results.push({ driver, result: await benchFairShare(driver, pgUrl) });
  console.log(fairShareSection(results).join("\n"));
}
