// `pbs listen`: webhook development without a public endpoint, as Stripe's CLI `listen` offers. It
// follows a running server's live event stream (GET /v1/events/stream, through the client library's
// `events.stream`, which resumes with Last-Event-ID after a drop or a server restart) and re-sends
// each event to a local URL as a webhook delivery, signed exactly as the server signs its own
// (`deliveryHeaders`, sent by `sendWebhook`, the worker's) with a secret of this run that it prints:
// the receiver verifies with that secret as it would with an endpoint's.
//
// A failed forward is reported and never holds the stream for long: an answer other than 2xx is the
// receiver's own answer, printed and not retried (what it said is for the developer to read); no
// answer at all (refused, reset, timed out: a dev server restarting) is tried twice more, 1 s and
// 2 s later, then printed as failed, and the next event is forwarded. Events are forwarded one at
// a time, in the stream's order. Ctrl-C (SIGINT) or SIGTERM ends it: the stream closes, a forward in
// flight is abandoned, and it exits 0.
import { setTimeout as sleep } from "node:timers/promises";
import { inspect } from "node:util";
import {
  ApiConnectionError,
  ApiError,
  createClient,
  EventStreamError,
  type StreamEvent,
  type StreamEventType,
} from "../../packages/client/src/index.ts";
import { newWebhookSecret, secretKey } from "../domain/webhook-signature.ts";
import { createWebhookTargets } from "../domain/webhook-targets.ts";
import { deliveryHeaders, sendWebhook, type AttemptResult } from "../jobs/webhook-sender.ts";
import { LISTEN_USAGE } from "./listen-usage.ts";
import { clientArgs, KEY_REQUIRED, serverClient, stdio, type Io } from "./server-client.ts";

/** Waits before the 2nd and 3rd attempts of a forward that got no answer. */
export const FORWARD_RETRY_DELAYS_MS = [1000, 2000] as const;

interface ListenOptions {
  readonly forwardTo: string;
  readonly serverUrl: string;
  readonly key: string;
  readonly secret: string;
  readonly types: readonly StreamEventType[] | undefined;
  readonly projectId: string | undefined;
}

/** Runs until Ctrl-C (0), a refusal of the stream such as a wrong key (1), or bad usage (2). */
export async function runListen(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = stdio("listen"),
): Promise<number> {
  const options = parseOptions(argv, env, io);
  if (typeof options === "number") return options;

  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await listen(options, stop.signal, io);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io): ListenOptions | number {
  const values = clientArgs(
    argv,
    {
      "forward-to": { type: "string" },
      events: { type: "string", multiple: true },
      project: { type: "string" },
      secret: { type: "string" },
    },
    LISTEN_USAGE,
    { error: io.error, help: io.out },
  );
  if (typeof values === "number") return values;
  const usage = (message: string) => {
    io.error(`${message}\nUsage: ${LISTEN_USAGE}`);
    return 2;
  };
  const forwardTo = values["forward-to"];
  if (!forwardTo) return usage("--forward-to is required: the local URL that receives the events");
  if (!/^https?:$/.test(URL.parse(forwardTo)?.protocol ?? ""))
    return usage(`--forward-to ${JSON.stringify(forwardTo)} is not an http(s) URL`);
  const { key, serverUrl } = serverClient(values, env);
  if (!key) return usage(KEY_REQUIRED);
  if (!/^https?:$/.test(URL.parse(serverUrl)?.protocol ?? ""))
    return usage(`--url ${JSON.stringify(serverUrl)} is not an http(s) URL`);
  const secret = values.secret ?? newWebhookSecret();
  try {
    secretKey(secret);
  } catch {
    return usage("--secret is `whsec_` and base64, as an endpoint's secret");
  }
  // "a,b" and repeated --events alike; "*" (or none) is every type the key can read.
  const types = (values.events ?? [])
    .flatMap((list) => list.split(","))
    .map((type) => type.trim())
    .filter((type) => type !== "");
  return {
    forwardTo,
    serverUrl,
    key,
    secret,
    types: types.length === 0 || types.includes("*") ? undefined : (types as StreamEventType[]),
    projectId: values.project,
  };
}

async function listen(options: ListenOptions, signal: AbortSignal, io: Io): Promise<number> {
  const client = createClient({
    apiKey: options.key,
    baseUrl: options.serverUrl,
    headers: { "User-Agent": "pbs-listen" },
  });
  // The receiver is the developer's own machine: loopback and private addresses are the point here.
  const targets = createWebhookTargets({ allowPrivateNetworks: true });
  const events = client.events.stream({
    ...(options.types ? { types: options.types } : {}),
    ...(options.projectId ? { project_id: options.projectId } : {}),
    signal,
    onReconnect: ({ delayMs, cause }) =>
      io.error(`${describeInterruption(cause)}; reconnecting in ${(delayMs / 1000).toFixed(1)} s`),
  });

  io.out(`Ready. Your webhook signing secret is ${options.secret} (^C to quit)`);
  const filters = [
    options.types ? `types ${options.types.join(", ")}` : "all types",
    options.projectId ? `project ${options.projectId}` : undefined,
  ].filter(Boolean);
  io.out(`Forwarding events of ${options.serverUrl} (${filters.join("; ")}) to ${options.forwardTo}`);

  try {
    for await (const event of events) {
      const outcome = await forward(event, options, targets, signal);
      if (outcome === undefined) break; // stopped in the middle of it
      io.out(`${new Date().toISOString()}  ${event.type}  ${event.id}  ${outcome}`);
    }
  } catch (error) {
    if (error instanceof ApiError)
      io.error(`the server refused the event stream: ${error.status} ${error.code}: ${error.message}`);
    else if (error instanceof ApiConnectionError || error instanceof EventStreamError) io.error(error.message);
    else throw error;
    return 1;
  }
  io.out("Stopped.");
  return 0;
}

/** One event to the receiver; what came of it, as printed, or undefined when stopped meanwhile. */
async function forward(
  event: StreamEvent,
  options: ListenOptions,
  targets: ReturnType<typeof createWebhookTargets>,
  signal: AbortSignal,
): Promise<string | undefined> {
  const body = JSON.stringify(event);
  let result: AttemptResult;
  for (let attempt = 1; ; attempt++) {
    // Signed afresh each attempt: the timestamp is the attempt's, as the server's are.
    result = await sendWebhook({
      url: options.forwardTo,
      body,
      headers: deliveryHeaders(event.id, body, [options.secret]),
      targets,
      signal,
    });
    if (result.abandoned || signal.aborted) return undefined;
    const delay = FORWARD_RETRY_DELAYS_MS[attempt - 1];
    if (result.status !== undefined || delay === undefined) break;
    if (!(await sleep(delay, true, { signal }).catch(() => false))) return undefined;
  }
  const tries = (n: number) => `${n} attempt${n === 1 ? "" : "s"}`;
  if (result.status === undefined)
    return `-> failed: ${result.error ?? "no answer"} (${tries(FORWARD_RETRY_DELAYS_MS.length + 1)}; not retried further)`;
  return `-> ${result.status} (${result.durationMs} ms)${result.error ? `: ${result.error}` : ""}`;
}

function describeInterruption(cause: unknown): string {
  if (cause === undefined) return "the server ended the stream";
  if (cause instanceof ApiError) return `the server answered ${cause.status} ${cause.code}`;
  const error = cause as Error & { cause?: { code?: string; message?: string } };
  return `the stream was interrupted (${error.cause?.code ?? error.cause?.message ?? error.message ?? inspect(cause)})`;
}
