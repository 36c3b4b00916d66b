// `pbs wait` (src/cli/wait.ts) against a fake API (node:http answering the contract's shapes), in
// this process: it polls until the status is final and prints one line (or the resource with
// --json); a 429 waits its Retry-After; a failure prints the run's error and exits 1; an unknown id
// is one line naming the 404, never a stack trace; a timeout and bad usage exit 2. The real server
// and its built-in agent are waited for in quickstart.test.ts.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SchemaAgentRun, SchemaDeployment, SchemaError, SchemaProject } from "../generated/schema.d.ts";
import { runWait } from "../src/cli/wait.ts";
import { runPbs } from "./support/process.ts";

const KEY = "svc_test_wait00000000000000000000";
const PRJ = "prj_8kF2mQ9xLp3vR7tZ";
const RUN = "run_2bN7xQ4kLm9PzR3t";
const DPL = "dpl_5cV8nW2qHs6JyK4m";
const APP_URL = "http://recipes-x7k2m9.localhost:8081/?access_token=1.abc";

const project = (status: SchemaProject["status"], url?: string): SchemaProject => ({
  id: PRJ,
  name: "Recipes",
  agent: "coding-agent-1",
  visibility: "private",
  template: "blank",
  status,
  latest_run_id: RUN,
  ...(url ? { url } : {}),
  forked_from: null,
  created_at: "2026-11-26T12:00:00.000Z",
});

const run = (status: SchemaAgentRun["status"], error: SchemaAgentRun["error"] = null): SchemaAgentRun => ({
  id: RUN,
  project_id: PRJ,
  agent: "coding-agent-1",
  prompt: "Recipes",
  trigger: "project_created",
  status,
  credits_used: 0,
  error,
  summary: null,
  version_id: null,
  attachments: [],
  max_credits: null,
  created_at: "2026-11-26T12:00:00.000Z",
  started_at: null,
  finished_at: null,
  updated_at: "2026-11-26T12:00:00.000Z",
});

const deployment = (status: SchemaDeployment["status"], url: string | null): SchemaDeployment => ({
  id: DPL,
  project_id: PRJ,
  run_id: RUN,
  version_id: "ver_8dW3mX7pKq2NzT5r",
  target: "production",
  status,
  url,
  rollback_of: null,
  created_at: "2026-11-26T12:00:00.000Z",
  error: null,
  ready_at: null,
  updated_at: "2026-11-26T12:00:00.000Z",
});

const notFound = (message: string): SchemaError => ({
  error: { code: "not_found", message, param: null, request_id: "req_wait0000000000001" },
});

interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** What the fake API answers, by path: one answer after another (the last one repeats). */
let answers: Record<string, Answer[]> = {};
let requests: { path: string; at: number; headers: IncomingMessage["headers"] }[] = [];
let api: Server;
let apiUrl: string;

beforeAll(async () => {
  api = createServer((req, res) => {
    const path = req.url!;
    requests.push({ path, at: Date.now(), headers: req.headers });
    const queue = answers[path];
    const answer = (queue && queue.length > 1 ? queue.shift() : queue?.[0]) ?? {
      status: 404,
      body: notFound(`No such thing as ${path}.`),
    };
    res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

beforeEach(() => {
  answers = {};
  requests = [];
});

/** `pbs wait` with `args` (and the fake API's --url), PB_API_KEY set: its exit status and output. */
async function wait(args: string[], env: NodeJS.ProcessEnv = { PB_API_KEY: KEY }) {
  const out: string[] = [];
  const error: string[] = [];
  const code = await runWait([...args, "--url", apiUrl], env, {
    out: (line) => out.push(line),
    error: (message) => error.push(message),
  });
  return { code, stdout: out.join("\n"), stderr: error.join("\n") };
}

const projectPath = `/v1/projects/${PRJ}`;
const runPath = `${projectPath}/runs/${RUN}`;

describe("pbs wait", () => {
  it("polls a project, backing off, until its run is final; prints its id, status and url", async () => {
    answers[projectPath] = [
      { body: project("queued") },
      { body: project("building") },
      { body: project("ready", APP_URL) },
    ];
    const result = await wait([PRJ]);
    expect(result).toEqual({ code: 0, stdout: `${PRJ} ready ${APP_URL}`, stderr: "" });
    expect(requests.map((request) => request.path)).toEqual([projectPath, projectPath, projectPath]);
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    // 0.5 s, then 1 s: each wait doubles the one before.
    const gaps = requests.slice(1).map((request, i) => request.at - requests[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(450);
    expect(gaps[1]).toBeGreaterThanOrEqual(950);
  });

  it("waits what a 429's Retry-After says before reading again", async () => {
    answers[projectPath] = [
      {
        status: 429,
        headers: { "retry-after": "1" },
        body: { error: { code: "key_rate_limited", message: "Slow down.", param: null, request_id: "req_1" } },
      },
      { body: project("ready") },
    ];
    const result = await wait([PRJ, "--key", KEY], {});
    expect(result).toEqual({ code: 0, stdout: `${PRJ} ready`, stderr: "" });
    // Longer than the 0.5 s it would otherwise have waited.
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("exits 1 on a failed project with its run's error; --json prints the project, the error on stderr", async () => {
    answers[projectPath] = [{ body: project("failed") }];
    answers[runPath] = [{ body: run("failed", { code: "agent_error", message: "The model did not answer." }) }];
    expect(await wait([PRJ])).toEqual({
      code: 1,
      stdout: `${PRJ} failed agent_error: The model did not answer.`,
      stderr: "",
    });
    const json = await wait([PRJ, "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual(project("failed"));
    expect(json.stderr).toBe(`${PRJ} failed agent_error: The model did not answer.`);
  });

  it("waits for a run or a deployment under the project given with --project", async () => {
    answers[runPath] = [{ body: run("running") }, { body: run("canceled") }];
    expect(await wait([RUN, "--project", PRJ])).toEqual({ code: 1, stdout: `${RUN} canceled`, stderr: "" });

    const deploymentPath = `${projectPath}/deployments/${DPL}`;
    answers[deploymentPath] = [{ body: deployment("building", null) }, { body: deployment("ready", APP_URL) }];
    const result = await wait(["--project", PRJ, DPL, "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(deployment("ready", APP_URL));
  });

  it("names the 404 of an unknown id, or an answer not the API's, in one line, and exits 1", async () => {
    expect(await wait(["prj_unknown0000000000"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "prj_unknown0000000000: 404 not_found: No such thing as /v1/projects/prj_unknown0000000000.",
    });
    // Something else at --url, answering 200: said so, not a TypeError.
    answers[projectPath] = [{ body: "<!doctype html>" }];
    expect(await wait([PRJ])).toEqual({
      code: 1,
      stdout: "",
      stderr: `${PRJ}: GET ${projectPath} answered no project: is --url the API?`,
    });
    // The executable too: one line on stderr, no stack trace.
    const pbs = await runPbs(["wait", "prj_unknown0000000000", "--url", apiUrl], { PB_API_KEY: KEY });
    expect(pbs).toEqual({
      code: 1,
      stdout: "",
      stderr: "pbs wait: prj_unknown0000000000: 404 not_found: No such thing as /v1/projects/prj_unknown0000000000.\n",
    });
  });

  it("exits 2 once --timeout has passed with the work still in progress", async () => {
    answers[projectPath] = [{ body: project("building") }];
    const started = Date.now();
    expect(await wait([PRJ, "--timeout", "1"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `${PRJ} is still building after 1 s (--timeout)`,
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(2000);
    // 0.5 s apart, then its last read at the deadline.
    expect(requests).toHaveLength(3);
  });

  it("exits 2 on bad usage, before any request", async () => {
    const usage = async (args: string[], env?: NodeJS.ProcessEnv) => {
      const result = await wait(args, env);
      expect(result.code).toBe(2);
      return result.stderr.split("\n")[0];
    };
    expect(await usage([])).toBe("give one project, run or deployment id, e.g. pbs wait prj_…");
    expect(await usage([RUN])).toBe(`a run id needs its project: pbs wait ${RUN} --project prj_…`);
    expect(await usage(["key_abcdefgh12345678"])).toMatch(/is not a project \(prj_…\), run/);
    expect(await usage([PRJ, "--timeout", "soon"])).toBe("--timeout is a number of seconds above 0");
    expect(await usage([PRJ], {})).toMatch(/--key or PB_API_KEY/);
    expect(await usage([PRJ, "--bogus"])).toMatch(/Unknown option '--bogus'/);
    expect(requests).toEqual([]);
  });
});
