// `pbs wait`: blocks until a project's latest agent run, a run or a deployment is final, so that a
// script (or the README's quick start) can go on with one command instead of a polling loop. It is
// a client of a running server, polling the resource's GET as any client would: at 0.5 s, doubling
// to 5 s; a 429 waits what its Retry-After says; no answer (a server restarting) is retried a few
// times. Plain fetch rather than packages/client, so that it also runs in the server's image, which
// holds src/ and generated/ only.
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import type {
  SchemaAgentRun,
  SchemaAgentRunStatus,
  SchemaDeployment,
  SchemaDeploymentStatus,
  SchemaError,
  SchemaProject,
  SchemaProjectStatus,
} from "../../generated/schema.d.ts";
import { KEY_REQUIRED, serverClient, stdio, type Io } from "./server-client.ts";

export const WAIT_USAGE = `pbs wait <project id> | <run id> --project <project id> | <deployment id> --project <project id>
           [--timeout <seconds>] [--json] [--url <server>] [--key <key>]
      Waits until the project's latest agent run, the run or the deployment is final and prints one
      line: its id, its status and the app's url once there is one (--json: the resource as JSON).
      Exit status: 0 ready or succeeded; 1 failed or canceled (with the run's or the build's error),
      or refused by the server; 2 not final after --timeout seconds (default 300), or bad usage.
      --url, --key as for pbs mcp.`;

/** The first wait between two reads, and the longest; each wait doubles the one before. */
const POLL_DELAYS_MS = { first: 500, max: 5000 } as const;
/** Reads in a row that may get no answer (or a 502, 503, 504) before pbs wait gives up. */
const UNANSWERED_LIMIT = 4;
const DEFAULT_TIMEOUT_SECONDS = 300;
const LAST_READ_MS = 2000;

type Status = SchemaProjectStatus | SchemaAgentRunStatus | SchemaDeploymentStatus;
const IN_PROGRESS: ReadonlySet<Status> = new Set<Status>(["queued", "running", "building"]);
// A deployment found already superseded was ready first: a newer one replaced it meanwhile.
const SUCCEEDED: ReadonlySet<Status> = new Set<Status>(["ready", "succeeded", "superseded"]);

type Waited =
  | { readonly kind: "project"; readonly resource: SchemaProject }
  | { readonly kind: "run"; readonly resource: SchemaAgentRun }
  | { readonly kind: "deployment"; readonly resource: SchemaDeployment };

interface WaitOptions {
  readonly id: string;
  readonly kind: Waited["kind"];
  /** The GET that reads it. */
  readonly path: string;
  readonly projectPath: string;
  readonly serverUrl: string;
  readonly key: string;
  readonly timeoutMs: number;
  readonly json: boolean;
}

const ID = /^(prj|run|dpl)_[0-9A-Za-z]{8,64}$/;
const KINDS = { prj: "project", run: "run", dpl: "deployment" } as const;

/** The exit status: 0 succeeded, 1 failed, canceled or refused, 2 timed out or bad usage. */
export async function runWait(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = stdio("wait"),
): Promise<number> {
  const options = parseOptions(argv, env, io);
  if (typeof options === "number") return options;
  return wait(options, io);
}

function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): WaitOptions | number {
  const usage = (message: string) => {
    io.error(`${message}\nUsage: ${WAIT_USAGE}`);
    return 2;
  };
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        project: { type: "string" },
        timeout: { type: "string" },
        json: { type: "boolean" },
        // As every client of a server takes them (server-client.ts).
        url: { type: "string" },
        key: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(`Usage: ${WAIT_USAGE}`);
    return 0;
  }
  if (positionals.length !== 1) return usage("give one project, run or deployment id, e.g. pbs wait prj_…");
  const id = positionals[0]!;
  const prefix = ID.exec(id)?.[1] as keyof typeof KINDS | undefined;
  if (!prefix) return usage(`"${id}" is not a project (prj_…), run (run_…) or deployment (dpl_…) id`);
  const kind = KINDS[prefix];
  let projectId = values.project;
  if (kind === "project") {
    if (projectId !== undefined && projectId !== id) return usage("--project is for a run or deployment id");
    projectId = id;
  } else if (projectId === undefined) {
    // The contract reads runs and deployments under their project only.
    return usage(`a ${kind} id needs its project: pbs wait ${id} --project prj_…`);
  }
  if (!ID.test(projectId) || !projectId.startsWith("prj_"))
    return usage(`--project "${projectId}" is not a project id (prj_…)`);
  const timeout = values.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(values.timeout);
  if (!(timeout > 0 && Number.isFinite(timeout))) return usage("--timeout is a number of seconds above 0");
  const { key, serverUrl } = serverClient(values, env);
  if (!key) return usage(KEY_REQUIRED);
  if (!/^https?:$/.test(URL.parse(serverUrl)?.protocol ?? ""))
    return usage(`--url ${JSON.stringify(serverUrl)} is not an http(s) URL`);
  const projectPath = `/v1/projects/${projectId}`;
  return {
    id,
    kind,
    path: kind === "project" ? projectPath : `${projectPath}/${kind === "run" ? "runs" : "deployments"}/${id}`,
    projectPath,
    serverUrl,
    key,
    timeoutMs: timeout * 1000,
    json: values.json === true,
  };
}

/** What one GET came to: the body, or what to say about it (status 0: no answer came). */
type Read<T> =
  | { readonly ok: true; readonly body: T }
  | { readonly ok: false; readonly status: number; readonly message: string; readonly retryAfterMs?: number };

async function wait(options: WaitOptions, io: Io): Promise<number> {
  const deadline = Date.now() + options.timeoutMs;
  let delayMs: number = POLL_DELAYS_MS.first;
  let unanswered = 0;
  let last: Waited | undefined;
  for (;;) {
    const read = await get<Waited["resource"]>(options, options.path, deadline);
    let pauseMs = delayMs;
    if (read.ok) {
      unanswered = 0;
      last = { kind: options.kind, resource: read.body } as Waited;
      if (!IN_PROGRESS.has(last.resource.status)) return report(last, options, deadline, io);
    } else if (read.status === 429) {
      pauseMs = read.retryAfterMs ?? delayMs;
    } else if (read.status === 0 || [502, 503, 504].includes(read.status)) {
      // Past the deadline, it is a timeout like any other.
      if (++unanswered >= UNANSWERED_LIMIT && Date.now() < deadline) {
        io.error(`${options.serverUrl}: ${read.message} (${unanswered} reads in a row)`);
        return 1;
      }
    } else {
      io.error(`${options.id}: ${read.message}`);
      return 1;
    }
    // The last read is at the deadline itself.
    const remainingMs = deadline - Date.now();
    if (remainingMs <= 0) break;
    await sleep(Math.min(pauseMs, remainingMs));
    delayMs = Math.min(delayMs * 2, POLL_DELAYS_MS.max);
  }
  const status = last ? `still ${last.resource.status}` : "not final";
  io.error(`${options.id} is ${status} after ${options.timeoutMs / 1000} s (--timeout)`);
  return 2;
}

/** Prints the final resource; the exit status. */
async function report(waited: Waited, options: WaitOptions, deadline: number, io: Io): Promise<number> {
  const { resource } = waited;
  const succeeded = SUCCEEDED.has(resource.status);
  let url: string | undefined;
  let error: SchemaAgentRun["error"] = null;
  if (waited.kind === "project") {
    url = waited.resource.url;
    if (!succeeded && waited.resource.latest_run_id) {
      // A project mirrors its latest run: the run says why it failed.
      const run = await get<SchemaAgentRun>(
        options,
        `${options.projectPath}/runs/${waited.resource.latest_run_id}`,
        deadline,
      );
      if (run.ok) error = run.body.error;
    }
  } else if (waited.kind === "deployment") {
    url = waited.resource.url ?? undefined;
    error = waited.resource.error;
  } else error = waited.resource.error;
  const line = [
    `${resource.id} ${resource.status}`,
    ...(url ? [url] : []),
    ...(error ? [`${error.code}: ${error.message}`] : []),
  ].join(" ");
  if (options.json) {
    io.out(JSON.stringify(resource, null, 2));
    if (!succeeded) io.error(line);
  } else io.out(line);
  return succeeded ? 0 : 1;
}

async function get<T extends { readonly status: string }>(
  options: WaitOptions,
  path: string,
  deadline: number,
): Promise<Read<T>> {
  let response: Response;
  try {
    response = await fetch(new URL(path, options.serverUrl), {
      headers: { Authorization: `Bearer ${options.key}`, Accept: "application/json", "User-Agent": "pbs-wait" },
      // A read at the deadline still gets a moment to be answered.
      signal: AbortSignal.timeout(Math.max(deadline - Date.now(), LAST_READ_MS)),
    });
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, status: 0, message: cause?.code ?? cause?.message ?? (error as Error).message };
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    if (typeof (body as Partial<T> | undefined)?.status === "string") return { ok: true, body: body as T };
    // Something answered, not the API (a wrong --url): no stack trace for a property of nothing.
    return {
      ok: false,
      status: response.status,
      message: `GET ${path} answered no ${options.kind}: is --url the API?`,
    };
  }
  const error = (body as Partial<SchemaError> | undefined)?.error;
  const retryAfter = response.headers.get("retry-after")?.trim();
  return {
    ok: false,
    status: response.status,
    message:
      typeof error?.code === "string" && typeof error.message === "string"
        ? `${response.status} ${error.code}: ${error.message}`
        : `HTTP ${response.status}`,
    ...(retryAfter && /^\d+$/.test(retryAfter) ? { retryAfterMs: Number(retryAfter) * 1000 } : {}),
  };
}
