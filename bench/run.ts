// npm run bench — the benchmark: each scenario on the reference server beside its
// ceilings, in the same run, in interleaved rounds (server, bare node, openapi-backend, Prism,
// server, …), with autocannon -c 10; medians of the rounds are written to bench/RESULTS.md.
//
//   npm run bench                                   # all drivers, all scenarios (long)
//   npm run bench -- --quick                        # smoke: 3 s per round, one round
//   npm run bench -- --drivers postgres --scenarios get,list --duration 10 --rounds 3
//
// Targets (all child processes of this one):
//   server           node --import ./bench/count-statements.ts src/main.ts (DATA_DIR temp dir, or
//                    DATABASE_URL to a fresh bench_… database, + REDIS_URL), LOG_LEVEL=warn
//   bare-node        bench/ceilings/bare-node.ts: node:http answering the bytes of one real response
//   openapi-backend  bench/ceilings/openapi-backend.ts: match + validate + one PK read, same storage
//                    (PostgreSQL: the same database; PGlite: a copy of the server's data directory)
//   prism            the Prism mock of generated/openapi.yaml (as `npm run mock`; 401/429 asked with Prefer)
//
// Seeding: a workspace `bench` on the enterprise plan and 100 keys through pbs' own command code
// (the admin socket on PGlite, executeCommand on PostgreSQL), rotated per request; a dedicated key
// for the 429 scenario; one project and one 1 MiB file through the API; 10,100 copies of the project
// inserted with SQL (server stopped) for the list/cursor scenarios.
// Extra parts (bench/README.md): scale, profile, routing, mcp, and events (bench/event-stream.ts: event
// written → received at 100 open streams of GET /v1/events/stream, on PostgreSQL).
// Also measured: statements per request (counted at the driver by the preload), CPU ms per request
// (/proc/<pid>/stat), p50/p99, start-up to the first answer (fresh/existing), RSS idle and after load.
// Environment: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL
// (default redis://127.0.0.1:6379).
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import autocannon from "autocannon";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { sendToAdminSocket } from "../src/cli/admin-socket.ts";
import { executeCommand, parseCommand } from "../src/cli/commands.ts";
import { openPostgresStorage } from "../src/storage/postgres.ts";
import { benchEventStream } from "./event-stream.ts";
import { benchFairShare } from "./fair-share.ts";
import { summarizeProfile } from "./profile-summary.ts";
import { benchRouting } from "./routing.ts";
import {
  flags,
  CENSUS_REQUESTS,
  CONNECTIONS,
  CURSOR_PAGES,
  DB_PROXY,
  DRIVERS,
  DURATION,
  type Driver,
  EVENTS,
  FAIR_SHARE,
  FILE,
  KEY_COUNT,
  LIST_COPIES,
  MCP,
  PG_URL,
  PROFILE,
  PROFILED_SCENARIOS,
  REDIS_URL,
  ROUNDS,
  ROUTING,
  SCALE,
  SCENARIOS,
  type ScenarioName,
  TARGETS,
  type TargetName,
  root,
} from "./settings.ts";
import { type DriverInfo, type ProfiledLoad, type Round, type Row, median } from "./results.ts";
import { report } from "./report.ts";

const portsHandedOut = new Set<number>();

/** A port free now and not handed out before in this run (the kernel may offer a closed one again). */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await anyFreePort();
    if (!portsHandedOut.has(port)) {
      portsHandedOut.add(port);
      return port;
    }
  }
}

async function anyFreePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  log: string;
}

function start(args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const handle: Child = { process: child, pid: child.pid!, log: "" };
  const keep = (chunk: Buffer) => {
    handle.log = (handle.log + chunk.toString()).slice(-4000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  return handle;
}

async function stop(child: Child | undefined): Promise<void> {
  if (!child || child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = new Promise((done) => child.process.once("exit", done));
  child.process.kill("SIGTERM");
  const timer = setTimeout(() => child.process.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/** bench/db-proxy.ts in front of the database `url`: the URL through it, and its process. */
async function startDbProxy(url: string): Promise<{ child: Child; url: string }> {
  const child = start(["bench/db-proxy.ts", url]);
  const port = await new Promise<number>((done, fail) => {
    child.process.once("message", (message) => done((message as { port: number }).port));
    child.process.once("exit", () => fail(new Error(`the database proxy exited:\n${child.log}`)));
  });
  const proxied = new URL(url);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(port);
  return { child, url: proxied.toString() };
}

/** Milliseconds until `url` answers at all (any status). */
async function waitForAnswer(url: string, child: Child, init: RequestInit = {}, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child.process.exitCode !== null) throw new Error(`process exited before answering ${url}:\n${child.log}`);
    try {
      const response = await fetch(url, init);
      await response.arrayBuffer();
      return performance.now() - started;
    } catch {
      await new Promise((done) => setTimeout(done, 10));
    }
  }
  throw new Error(`no answer from ${url} in ${timeoutMs} ms:\n${child.log}`);
}

/** CPU milliseconds (user + system) the process has used. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in ticks (CLK_TCK 100)
}

/**
 * CPU milliseconds each PostgreSQL process of this machine has used, by pid (its server is shared by
 * the PostgreSQL targets, and nothing else loads it during a round): what requests cost the database.
 */
function postgresCpuMs(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres")
        byPid.set(Number(entry), cpuMs(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return byPid;
}

/** What the PostgreSQL processes used between two readings: a process started meanwhile counts whole; one that ended, not at all. */
function postgresCpuSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of postgresCpuMs()) total += ms - (before.get(pid) ?? 0);
  return total;
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

async function statementCounts(port: number): Promise<Record<string, number>> {
  return (await (await fetch(`http://127.0.0.1:${port}/`)).json()) as Record<string, number>;
}

/** Statements per request of a short run of its own: the request path's, and the background's meanwhile. */
async function statementCensus(
  server: Server,
  spec: RequestSpec,
  keys: string[],
  amount: number,
): Promise<{ requestPath: number; background: number }> {
  // A request per key first: a key's principal is looked up again once a minute, and in a census
  // this short those lookups would count as a large share of the warm path's statements.
  // (At least one per connection: autocannon refuses fewer, as for the one unknown key of a 401.)
  await load(server.base, spec, keys, { amount: Math.max(keys.length, CONNECTIONS) });
  await fetch(`http://127.0.0.1:${server.counterPort}/census/start`);
  const round = await load(server.base, spec, keys, { amount });
  const counted = (await (await fetch(`http://127.0.0.1:${server.counterPort}/census/stop`)).json()) as {
    requestPath: number;
    background: number;
  };
  const requests = Math.max(round.requests, 1);
  return { requestPath: counted.requestPath / requests, background: counted.background / requests };
}

// ------------------------------------------------------------------------------------------------
// The server under benchmark

interface Server {
  child: Child;
  readonly port: number;
  readonly counterPort: number;
  readonly env: Record<string, string>;
  readonly base: string;
}

async function startServer(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ server: Server; startupMs: number }> {
  const port = await freePort();
  const counterPort = await freePort();
  // The 401 scenario measures a refusal's own cost: from one address its flood would otherwise be
  // answered 429 ip_rate_limited after 60 a minute (cheaper still: no lookup at all).
  const fullEnv = {
    ...env,
    PORT: String(port),
    APPS_PORT: String(await freePort()),
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    BENCH_COUNTER_PORT: String(counterPort),
    UNAUTHENTICATED_RATE_LIMIT: "0",
  };
  const child = start([...nodeArgs, "--import", "./bench/count-statements.ts", "src/main.ts"], fullEnv);
  const base = `http://127.0.0.1:${port}`;
  const startupMs = await waitForAnswer(`${base}/healthz`, child);
  return { server: { child, port, counterPort, env: fullEnv, base }, startupMs };
}

// ------------------------------------------------------------------------------------------------
// Load

interface RequestSpec {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** A fresh body and headers per request (create, upload). */
  readonly fresh?: () => { body: string | Buffer; headers: Record<string, string> };
}

// autocannon keeps each response's body as a string (`body += chunk`), which nothing here reads:
// decoding binary bytes as UTF-8 costs it ~130 µs per 16 KB (gzip, a download) against ~4 µs for
// ASCII, so on these two shared cores the load generator, not the server, set the pace of the
// scenarios with binary answers (the MCP tool list comes gzipped). Bodies are counted, not kept.
const pipelinedRequests = createRequire(import.meta.url)("autocannon/lib/pipelinedRequestsQueue.js") as {
  prototype: { addBody(data: Buffer): void };
};
pipelinedRequests.prototype.addBody = () => {};

/** One autocannon run; with several specs, each connection sends them in turn. */
async function load(
  base: string,
  spec: RequestSpec | readonly RequestSpec[],
  keys: string[],
  options: { duration?: number; amount?: number; pid?: number; postgres?: boolean },
): Promise<Round> {
  let next = 0;
  const cpuBefore = options.pid ? cpuMs(options.pid) : 0;
  const loadCpuBefore = process.cpuUsage();
  const databaseCpuBefore = options.postgres ? postgresCpuMs() : undefined;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? DURATION }),
    requests: (Array.isArray(spec) ? spec : [spec]).map((spec: RequestSpec) => ({
      method: spec.method,
      path: spec.path,
      setupRequest: (request) => {
        const key = keys[next++ % keys.length];
        const fresh = spec.fresh?.();
        return {
          ...request,
          headers: { ...spec.headers, ...fresh?.headers, authorization: `Bearer ${key}` },
          ...(fresh ? { body: fresh.body } : {}),
        };
      },
    })),
  });
  const cpu = options.pid ? cpuMs(options.pid) - cpuBefore : 0;
  const loadCpu = process.cpuUsage(loadCpuBefore);
  const databaseCpu = databaseCpuBefore ? postgresCpuSince(databaseCpuBefore) : NaN;
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count ?? 0;
  const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    requests: answered,
    rps: answered / (result.duration || 1),
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts,
    cpuMsPerRequest: options.pid && answered ? cpu / answered : NaN,
    loadCpuMsPerRequest: answered ? (loadCpu.user + loadCpu.system) / 1000 / answered : NaN,
    databaseCpuMsPerRequest: answered ? databaseCpu / answered : NaN,
  };
}

function multipart(path: string): { body: Buffer; headers: Record<string, string> } {
  const boundary = `bench${randomUUID().replaceAll("-", "")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\n${path}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, FILE, tail]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

// ------------------------------------------------------------------------------------------------
// Seeding

/** One storage per PostgreSQL database for the `pbs` commands of a driver's setup (opening one migrates and checks). */
const pbsStorages = new Map<string, ReturnType<typeof openPostgresStorage>>();

async function pbs(driver: Driver, server: Server, argv: string[]): Promise<Record<string, unknown>> {
  if (driver === "pglite") {
    const reply = await sendToAdminSocket(join(server.env.DATA_DIR!, "admin.sock"), argv);
    if (!reply?.ok) throw new Error(`pbs ${argv.join(" ")}: ${reply ? reply.message : "no admin socket"}`);
    return reply.output.json as Record<string, unknown>;
  }
  const url = server.env.DATABASE_URL!;
  if (!pbsStorages.has(url)) pbsStorages.set(url, openPostgresStorage({ url, poolSize: 2 }));
  const storage = await pbsStorages.get(url)!;
  return (await executeCommand(storage.db, parseCommand(argv))).json as Record<string, unknown>;
}

async function closePbsStorage(url: string | undefined): Promise<void> {
  if (url === undefined) return;
  const storage = pbsStorages.get(url);
  pbsStorages.delete(url);
  await (await storage)?.close();
}

async function api(
  server: Server,
  key: string,
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(typeof body === "string" ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    ...(body ? { body } : {}),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    bytes,
    json: (): unknown => JSON.parse(bytes.toString("utf8")),
  };
}

/** SQL copying project $1 `count` times (ids `prj_<tag>000…n`), each a second older than the last. */
const insertCopies = (
  count: number,
  tag: string,
  offset = 0,
) => `insert into projects (id, workspace_id, environment, name, prompt, agent, visibility, template, status, created_at, updated_at)
  select 'prj_${tag}' || lpad(g::text, 23, '0'), workspace_id, environment, name || ' ' || g, prompt, agent, visibility, template, status,
         created_at - g * interval '1 second', updated_at
  from projects, generate_series(${offset + 1}, ${offset + count}) g where id = $1`;
const INSERT_COPIES = insertCopies(LIST_COPIES, "B");

/** Audit rows for the scale phase (a 10-million-row table on PostgreSQL; PGlite seeds 1 million in about a minute). */
const SCALE_AUDIT_ROWS: Record<"pglite" | "postgres", number> = { pglite: 1_000_000, postgres: 10_000_000 };
const SCALE_PROJECTS = 100_000;
const insertAuditRows = (
  count: number,
) => `insert into audit_log (occurred_at, workspace_id, method, route, path, status, ip, request_id, latency_ms)
  select now() - g * interval '10 ms', 'ws_scale' || (g % 100), 'GET', '/v1/projects/{project_id}', '/v1/projects/prj_x', 200, '127.0.0.1', 'req_scale' || g, 1
  from generate_series(1, ${count}) g`;

// ------------------------------------------------------------------------------------------------
// One driver: seed, then every scenario against every target in interleaved rounds

async function benchDriver(
  driver: Driver,
  prismBase: string,
  prismChild: Child,
): Promise<{ rows: Row[]; info: DriverInfo }> {
  const tag = `bench_${process.pid}_${driver.replace("+", "_")}`;
  const dataDir = mkdtempSync(join(tmpdir(), `${tag}-`));
  const env: Record<string, string> = {};
  const admin = new pg.Client({ connectionString: PG_URL });
  let proxy: { child: Child; url: string } | undefined;
  if (driver === "pglite") {
    env.DATA_DIR = dataDir;
  } else {
    await admin.connect();
    await admin.query(`create database ${tag}`);
    const url = new URL(PG_URL);
    url.pathname = `/${tag}`;
    env.DATABASE_URL = url.toString();
    if (DB_PROXY) {
      proxy = await startDbProxy(env.DATABASE_URL);
      env.DATABASE_URL = proxy.url;
    }
    env.DATA_DIR = dataDir;
    if (driver === "postgres+redis") env.REDIS_URL = REDIS_URL;
  }
  const info: DriverInfo = { driver, startup: {}, rss: {} };
  const children: Child[] = [];
  try {
    let { server, startupMs } = await startServer(env);
    info.startup[driver === "pglite" ? "fresh data dir" : "empty database"] = startupMs;
    console.log(`[${driver}] server up in ${Math.round(startupMs)} ms; seeding`);

    await pbs(driver, server, ["workspaces", "create", "--slug", "bench", "--plan", "enterprise", "--json"]);
    const keys: string[] = [];
    for (let i = 0; i < KEY_COUNT; i++) {
      keys.push(
        (await pbs(driver, server, ["keys", "create", "--workspace", "bench", "--name", `bench ${i}`, "--json"]))
          .secret as string,
      );
    }
    const limitedKey = (
      await pbs(driver, server, ["keys", "create", "--workspace", "bench", "--name", "bench 429", "--json"])
    ).secret as string;
    const unknownKey = `${keys[0]!.slice(0, -6)}zzzzzz`;
    const created = await api(
      server,
      keys[0]!,
      "POST",
      "/v1/projects",
      JSON.stringify({ name: "Bench", prompt: "A benchmark project." }),
    );
    if (created.status !== 201) throw new Error(`create project: ${created.status} ${created.bytes.toString("utf8")}`);
    const projectId = (created.json() as { id: string }).id;
    const fileProject = await api(
      server,
      keys[0]!,
      "POST",
      "/v1/projects",
      JSON.stringify({ name: "Bench files", prompt: "Files." }),
    );
    const fileProjectId = (fileProject.json() as { id: string }).id;
    const upload = multipart("seed/file.txt");
    const uploaded = await api(
      server,
      keys[0]!,
      "POST",
      `/v1/projects/${fileProjectId}/files`,
      upload.body,
      upload.headers,
    );
    if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.bytes.toString("utf8")}`);
    const fileId = (uploaded.json() as { id: string }).id;
    // Let the agent runs queued by the two creates finish before the server is stopped.
    await new Promise((done) => setTimeout(done, 3000));

    // Stop, insert the copies for the list scenarios, copy the data directory for the PGlite ceiling, restart.
    await stop(server.child);
    const ceilingDir = join(dataDir, "ceiling-pgdata");
    if (driver === "pglite") {
      const db = await PGlite.create({ dataDir: join(dataDir, "pgdata") });
      await db.query(INSERT_COPIES, [projectId]);
      await db.query("analyze"); // a bulk load's statistics, as the server's housekeeping takes them
      await db.close();
      cpSync(join(dataDir, "pgdata"), ceilingDir, { recursive: true });
    } else {
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      await client.connect();
      await client.query(INSERT_COPIES, [projectId]);
      await client.query("analyze"); // as autovacuum would within a minute of a bulk load
      await client.end();
    }
    ({ server, startupMs } = await startServer(env));
    info.startup[driver === "pglite" ? "existing data dir" : "existing database"] = startupMs;
    children.push(server.child);
    console.log(`[${driver}] restarted in ${Math.round(startupMs)} ms`);

    // Warm the server a little, then the idle RSS.
    await load(server.base, { method: "GET", path: `/v1/projects/${projectId}` }, keys, { amount: 200 });
    await new Promise((done) => setTimeout(done, 1000));
    info.rss["server idle"] = rssMb(server.child.pid);

    // The cursor 500 pages deep, and the position it stands for (the ceiling's list starts there).
    let cursor = "";
    let position: { created_at: string; id: string } | undefined;
    for (let page = 0; page < CURSOR_PAGES; page++) {
      const answer = await api(
        server,
        keys[page % keys.length]!,
        "GET",
        `/v1/projects?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      if (answer.status !== 200) throw new Error(`page ${page}: ${answer.status} ${answer.bytes.toString("utf8")}`);
      const { data, next_cursor } = answer.json() as {
        data: Array<{ created_at: string; id: string }>;
        next_cursor: string | null;
      };
      if (!next_cursor) throw new Error(`the list ended after ${page + 1} pages`);
      cursor = next_cursor;
      position = { created_at: data.at(-1)!.created_at, id: data.at(-1)!.id };
    }

    const ceilingPort = await freePort();
    const ceilingStarted = performance.now();
    const ceiling = start([
      "bench/ceilings/openapi-backend.ts",
      String(ceilingPort),
      driver === "pglite" ? ceilingDir : env.DATABASE_URL!,
      projectId,
      JSON.stringify(position),
    ]);
    children.push(ceiling);
    const ceilingBase = `http://127.0.0.1:${ceilingPort}`;
    await waitForAnswer(`${ceilingBase}/healthz`, ceiling);
    // The floor of a start-up on this storage: openapi-backend loading the contract and opening the
    // same database (on PGlite, a copy of the same data directory) before its first answer.
    info.startup[`openapi-backend ceiling, ${driver === "pglite" ? "existing data dir" : "existing database"}`] =
      performance.now() - ceilingStarted;
    await new Promise((done) => setTimeout(done, 1000));
    info.rss["openapi-backend ceiling idle"] = rssMb(ceiling.pid);

    let uploads = 0;
    const specs: Record<
      ScenarioName,
      { spec: RequestSpec; expect: number; keys: string[]; prismHeaders?: Record<string, string> }
    > = {
      get: { spec: { method: "GET", path: `/v1/projects/${projectId}` }, expect: 200, keys },
      list: { spec: { method: "GET", path: "/v1/projects?limit=20" }, expect: 200, keys },
      "401": {
        spec: { method: "GET", path: `/v1/projects/${projectId}` },
        expect: 401,
        keys: [unknownKey],
        prismHeaders: { prefer: "code=401" },
      },
      "429": {
        spec: { method: "GET", path: `/v1/projects/${projectId}` },
        expect: 429,
        keys: [limitedKey],
        prismHeaders: { prefer: "code=429" },
      },
      create: {
        spec: {
          method: "POST",
          path: "/v1/projects",
          fresh: () => ({
            body: JSON.stringify({ name: "Bench create", prompt: "A benchmark project." }),
            headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
          }),
        },
        expect: 201,
        keys,
      },
      cursor500: {
        spec: { method: "GET", path: `/v1/projects?limit=20&cursor=${encodeURIComponent(cursor)}` },
        expect: 200,
        keys,
      },
      upload: {
        spec: {
          method: "POST",
          path: `/v1/projects/${fileProjectId}/files`,
          fresh: () => multipart(`up/${process.pid}-${uploads++}.txt`),
        },
        expect: 201,
        keys,
      },
      download: {
        spec: { method: "GET", path: `/v1/projects/${fileProjectId}/files/${fileId}/content` },
        expect: 200,
        keys,
      },
    };

    const rows: Row[] = [];
    for (const scenario of SCENARIOS) {
      const { spec, expect, keys: scenarioKeys, prismHeaders } = specs[scenario];
      // The bare node ceiling answers the bytes of one real answer of this scenario.
      // (429: ask until the key is over its limit, so the capture is a 429.)
      let sample: Awaited<ReturnType<typeof api>>;
      for (let attempt = 0; ; attempt++) {
        const sampleRequest = spec.fresh?.();
        sample = await api(server, scenarioKeys[0]!, spec.method, spec.path, sampleRequest?.body, {
          ...spec.headers,
          ...sampleRequest?.headers,
        });
        if (sample.status === expect || attempt >= 300) break;
      }
      const captureFile = join(dataDir, `capture-${scenario}.json`);
      writeFileSync(
        captureFile,
        JSON.stringify({ status: sample.status, headers: sample.headers, body: sample.bytes.toString("base64") }),
      );
      const barePort = await freePort();
      const bare = start(["bench/ceilings/bare-node.ts", String(barePort), captureFile]);
      const bareBase = `http://127.0.0.1:${barePort}`;
      await waitForAnswer(`${bareBase}/`, bare);

      const bases: Record<TargetName, { base: string; pid: number; spec: RequestSpec }> = {
        server: { base: server.base, pid: server.child.pid, spec },
        "bare-node": { base: bareBase, pid: bare.pid, spec },
        "openapi-backend": { base: ceilingBase, pid: ceiling.pid, spec },
        prism: {
          base: prismBase,
          pid: prismChild.pid,
          spec: { ...spec, headers: { ...spec.headers, ...prismHeaders } },
        },
      };
      const row: Row = { driver, scenario, expect, targets: {}, statements: {}, statementsPerRequest: 0 };
      // Warm-up of every target (not counted), then the rounds.
      for (const target of TARGETS) await load(bases[target].base, bases[target].spec, scenarioKeys, { duration: 1 });
      let serverRequests = 0;
      const countsBefore = await statementCounts(server.counterPort);
      for (let round = 0; round < ROUNDS; round++) {
        for (const target of TARGETS) {
          const { base, pid, spec: targetSpec } = bases[target];
          const result = await load(base, targetSpec, scenarioKeys, {
            duration: DURATION,
            pid,
            postgres: driver !== "pglite" && target !== "prism" && target !== "bare-node",
          });
          (row.targets[target] ??= []).push(result);
          if (target === "server") serverRequests += result.requests;
          console.log(
            `[${driver}] ${scenario} round ${round + 1} ${target}: ${Math.round(result.rps)} req/s p50 ${result.p50} p99 ${result.p99} ${JSON.stringify(result.statuses)}${result.errors ? ` errors ${result.errors}` : ""}`,
          );
        }
      }
      const countsAfter = await statementCounts(server.counterPort);
      for (const [text, n] of Object.entries(countsAfter)) {
        const delta = (n - (countsBefore[text] ?? 0)) / Math.max(serverRequests, 1);
        if (delta >= 0.005) row.statements[text] = delta;
      }
      row.statementsPerRequest = Object.values(row.statements).reduce((a, b) => a + b, 0);
      // About two seconds' worth of the scenario (an upload is slow), at most CENSUS_REQUESTS.
      const serverRps = median((row.targets.server ?? []).map((round) => round.rps));
      row.census = await statementCensus(
        server,
        spec,
        scenarioKeys,
        Math.max(20, Math.min(CENSUS_REQUESTS, Math.round(serverRps * 2))),
      );
      rows.push(row);
      await stop(bare);
    }
    if (MCP) info.mcp = await benchMcp(server, keys, projectId, driver);
    if (EVENTS && driver !== "pglite") {
      info.eventStream = await benchEventStream({
        base: server.base,
        keys,
        streams: 100,
        durationS: DURATION * ROUNDS,
      });
      const e = info.eventStream;
      console.log(
        `[${driver}] event stream: ${e.streams} streams, ${e.projectsCreated} projects, ${e.received} events received, ${e.missing} missing; p50 ${e.p50} p99 ${e.p99} max ${e.max} ms`,
      );
    }
    info.rss["server after load"] = rssMb(server.child.pid);
    info.rss["openapi-backend ceiling after load"] = rssMb(ceiling.pid);

    if (PROFILE && driver === "postgres") {
      // The get, list and create scenarios again, each on a server of its own under `--cpu-prof` (its
      // start-up is in the profile too, about a second of it).
      await stop(server.child);
      const profiledLoads = PROFILED_SCENARIOS.filter((name) => SCENARIOS.includes(name)).map(
        (name): [ProfiledLoad, RequestSpec | readonly RequestSpec[]] => [name, specs[name].spec],
      );
      // The MCP part's pair, for where a pair's time goes beside a GET's.
      if (MCP) profiledLoads.push(["mcp", mcpPair(projectId)]);
      for (const [scenario, spec] of profiledLoads) {
        const profileDir = join(dataDir, `profile-${scenario}`);
        const profiled = (await startServer(env, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`])).server;
        await load(profiled.base, spec, keys, { duration: 1 });
        await load(profiled.base, spec, keys, { duration: DURATION * 2 });
        await stop(profiled.child);
        const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
        if (file) {
          // Kept (git-ignored) for a closer look: Chrome DevTools' Performance panel opens it.
          const kept = join(root, "bench", "profiles", `${driver}-${scenario}.cpuprofile`);
          cpSync(join(profileDir, file), kept);
          (info.profiles ??= {})[scenario] = summarizeProfile(kept);
        }
        console.log(`[${driver}] profiled the ${scenario} scenario`);
      }
      ({ server } = await startServer(env));
      children.push(server.child);
    }

    if (SCALE && driver !== "postgres+redis") {
      const sqlDriver = driver === "pglite" ? "pglite" : "postgres";
      // 100 projects: a workspace of their own, with as many keys of its own (none may reach its limit).
      await pbs(driver, server, ["workspaces", "create", "--slug", "small", "--plan", "enterprise", "--json"]);
      const smallKeys: string[] = [];
      for (let i = 0; i < KEY_COUNT; i++)
        smallKeys.push(
          (await pbs(driver, server, ["keys", "create", "--workspace", "small", "--name", `small ${i}`, "--json"]))
            .secret as string,
        );
      const small = await api(
        server,
        smallKeys[0]!,
        "POST",
        "/v1/projects",
        JSON.stringify({ name: "Small", prompt: "One of a hundred." }),
      );
      const smallId = (small.json() as { id: string }).id;
      await new Promise((done) => setTimeout(done, 2000));
      await stop(server.child);
      console.log(
        `[${driver}] scale: seeding ${SCALE_PROJECTS} projects and ${SCALE_AUDIT_ROWS[sqlDriver]} audit rows`,
      );
      const seeded = performance.now();
      const statements = [
        [insertCopies(99, "S"), [smallId]],
        [insertCopies(SCALE_PROJECTS - LIST_COPIES - 1, "B", LIST_COPIES), [projectId]],
        [insertAuditRows(SCALE_AUDIT_ROWS[sqlDriver]), []],
      ] as const;
      if (driver === "pglite") {
        const db = await PGlite.create({ dataDir: join(dataDir, "pgdata") });
        for (const [text, params] of statements) await db.query(text, [...params]);
        await db.query("analyze"); // as the server's housekeeping does every ten minutes
        await db.close();
      } else {
        const client = new pg.Client({ connectionString: env.DATABASE_URL });
        await client.connect();
        for (const [text, params] of statements) await client.query(text, [...params]);
        await client.query("vacuum analyze");
        await client.end();
      }
      info.scaleNote = `${SCALE_PROJECTS.toLocaleString("en")} projects in one workspace and ${SCALE_AUDIT_ROWS[sqlDriver].toLocaleString("en")} more audit rows (seeded in ${Math.round((performance.now() - seeded) / 1000)} s)`;
      ({ server } = await startServer(env));
      children.push(server.child);
      const cases: Array<{ size: string; scenario: string; spec: RequestSpec; keys: string[] }> = [
        {
          size: "100 projects",
          scenario: "get",
          spec: { method: "GET", path: `/v1/projects/${smallId}` },
          keys: smallKeys,
        },
        {
          size: "100 projects",
          scenario: "list",
          spec: { method: "GET", path: "/v1/projects?limit=20" },
          keys: smallKeys,
        },
        { size: "100,000 projects", scenario: "get", spec: specs.get.spec, keys },
        { size: "100,000 projects", scenario: "list", spec: specs.list.spec, keys },
        { size: "100,000 projects", scenario: "cursor500", spec: specs.cursor500.spec, keys },
      ];
      for (const c of cases) await load(server.base, c.spec, c.keys, { duration: 1 });
      info.scale = cases.map((c) => ({ size: c.size, scenario: c.scenario, rounds: [] }));
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, c] of cases.entries()) {
          const result = await load(server.base, c.spec, c.keys, { duration: DURATION, pid: server.child.pid });
          info.scale[i]!.rounds.push(result);
          console.log(
            `[${driver}] scale ${c.size} ${c.scenario} round ${round + 1}: ${Math.round(result.rps)} req/s p99 ${result.p99} ${JSON.stringify(result.statuses)}`,
          );
        }
      }
    }
    return { rows, info };
  } finally {
    for (const child of children) await stop(child);
    await closePbsStorage(env.DATABASE_URL);
    await stop(proxy?.child);
    if (driver !== "pglite") {
      await admin.query(`drop database if exists ${tag} with (force)`).catch(() => {});
      await admin.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** An agent's tools/list and one tools/call of getProject, as the SDK's client sends them (its fetch asks for gzip, which the tool list then comes in). */
function mcpPair(projectId: string): RequestSpec[] {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "accept-encoding": "gzip, deflate",
    "mcp-protocol-version": "2025-06-18",
  };
  const message = (body: object): RequestSpec => ({
    method: "POST",
    path: "/mcp",
    fresh: () => ({ body: JSON.stringify(body), headers }),
  });
  return [
    message({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    message({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "getProject", arguments: { project_id: projectId } },
    }),
  ];
}

/**
 * The MCP server beside REST on one server: an agent's tools/list and one tools/call of getProject,
 * each connection sending the two in turn, against the same GET over REST, in interleaved rounds.
 */
async function benchMcp(
  server: Server,
  keys: string[],
  projectId: string,
  driver: Driver,
): Promise<NonNullable<DriverInfo["mcp"]>> {
  const pair = mcpPair(projectId);
  const rest: RequestSpec = { method: "GET", path: `/v1/projects/${projectId}` };
  for (const spec of pair) {
    const { body, headers } = spec.fresh!();
    const sample = await api(server, keys[0]!, "POST", "/mcp", body, headers);
    const answer = sample.json() as {
      result?: { tools?: unknown[]; isError?: boolean; structuredContent?: { id?: string } };
    };
    if (
      sample.status !== 200 ||
      answer.result?.isError ||
      !(answer.result?.tools?.length || answer.result?.structuredContent?.id === projectId)
    ) {
      throw new Error(`MCP sample: ${sample.status} ${sample.bytes.toString("utf8").slice(0, 300)}`);
    }
  }
  await load(server.base, rest, keys, { duration: 1 });
  await load(server.base, pair, keys, { duration: 1 });
  const rounds: NonNullable<DriverInfo["mcp"]> = { get: [], mcp: [], list: [], call: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.get.push(await load(server.base, rest, keys, { duration: DURATION, pid: server.child.pid }));
    rounds.mcp.push(await load(server.base, pair, keys, { duration: DURATION, pid: server.child.pid }));
    // Each message of the pair alone, for what each costs (shorter: the pair is the measure).
    rounds.list.push(
      await load(server.base, pair[0]!, keys, { duration: Math.max(1, DURATION / 2), pid: server.child.pid }),
    );
    rounds.call.push(
      await load(server.base, pair[1]!, keys, { duration: Math.max(1, DURATION / 2), pid: server.child.pid }),
    );
    const [get, mcp, list, call] = [rounds.get.at(-1)!, rounds.mcp.at(-1)!, rounds.list.at(-1)!, rounds.call.at(-1)!];
    console.log(
      `[${driver}] mcp round ${round + 1}: GET ${Math.round(get.rps)} req/s; MCP ${Math.round(mcp.rps)} messages/s (${Math.round(mcp.rps / 2)} pairs/s) p99 ${mcp.p99} ${JSON.stringify(mcp.statuses)}; alone: tools/list ${Math.round(list.rps)}/s, tools/call ${Math.round(call.rps)}/s`,
    );
  }
  return rounds;
}

// ------------------------------------------------------------------------------------------------
// Report

const startedAt = new Date();
// Only a whole run (every driver, scenario and extra part; not --quick) replaces the committed results;
// any other run writes its report beside them (git-ignored) unless --out says where.
const complete =
  !flags.quick &&
  !flags.scenarios &&
  DRIVERS.length === 3 &&
  SCALE &&
  PROFILE &&
  ROUTING &&
  MCP &&
  EVENTS &&
  FAIR_SHARE;
const resultsPath = resolve(flags.out ?? join(root, "bench", complete ? "RESULTS.md" : "RESULTS.partial.md"));
const prismPort = await freePort();
const prismCli = join(
  dirname(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json")),
  "dist",
  "index.js",
);
const prism = start([
  prismCli,
  "mock",
  join(root, "generated", "openapi.yaml"),
  "--errors",
  "--port",
  String(prismPort),
  "--host",
  "127.0.0.1",
]);
const prismBase = `http://127.0.0.1:${prismPort}`;
const rows: Row[] = [];
const infos: DriverInfo[] = [];
let prismRss = NaN;
const routing = ROUTING ? await benchRouting() : undefined;
if (routing)
  console.log(
    `routing: ${Math.round(routing.contract.routerNs)} ns/match with ${routing.contract.operations} operations, ${Math.round(routing.doubled.routerNs)} with ${routing.doubled.operations}`,
  );
try {
  await waitForAnswer(`${prismBase}/v1/projects/prj_8kF2mQ9xLp3vR7tZ`, prism, {
    headers: { authorization: "Bearer x" },
  });
  for (const driver of DRIVERS) {
    const { rows: driverRows, info } = await benchDriver(driver, prismBase, prism);
    if (FAIR_SHARE && driver !== "postgres+redis") {
      info.fairShare = await benchFairShare(driver, PG_URL);
      const { runs, builds } = info.fairShare;
      console.log(
        `[${driver}] fair share: a run behind ${runs.flood} p50 ${runs.behindFlood.p50} ms (alone ${runs.alone.p50}), a build behind ${builds.flood} p50 ${builds.behindFlood.p50} ms (alone ${builds.alone.p50})`,
      );
    }
    rows.push(...driverRows);
    infos.push(info);
    writeFileSync(resultsPath, report(rows, infos, startedAt, prismRss, routing));
  }
  prismRss = rssMb(prism.pid);
} finally {
  await stop(prism);
}
writeFileSync(resultsPath, report(rows, infos, startedAt, prismRss, routing));
console.log(`wrote ${resultsPath} (${Math.round((Date.now() - startedAt.getTime()) / 1000)} s)`);
