// The live event stream's part of `npm run bench`: event written → received on
// GET /v1/events/stream, at `streams` open streams (100: the goal's), each followed by the client
// library's `events.stream` as an application would, while projects are created through the API at
// a steady rate (each create writes `project.created` and `agent_run.queued`, and the run that
// follows writes its own events: every stream receives every one of them).
//
// Latency of one event on one stream: the moment it is received here minus its `created_at` (the
// server stamps it in the transaction that writes it; server and bench share this machine's clock),
// so it covers the commit, the notification between replicas' listeners (PostgreSQL LISTEN/NOTIFY
// or Redis), the fan-out to every stream, the socket and the client's parsing. Also counted: events
// a stream never received (of the projects created, each stream must see every `project.created`).
//
// Each stream uses a key of its own (EVENT_STREAMS_PER_KEY, 5 by default, bounds a key's streams).
// Needs the server's event stream: a server without it answers 404, and the part stops saying so.
import { ApiError, createClient, type StreamEvent } from "../packages/client/src/index.ts";

export interface EventStreamResult {
  streams: number;
  /** Projects created while measuring (each one a `project.created` every stream must receive). */
  projectsCreated: number;
  /** Events received, all streams together. */
  received: number;
  /** `project.created` events of the measured projects that some stream never received. */
  missing: number;
  /** Latency of every event received, milliseconds: median, 99th percentile, worst. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface EventStreamOptions {
  /** The server's origin, e.g. http://127.0.0.1:8080. */
  base: string;
  /** At least `streams` keys of one workspace; the writes rotate over them too. */
  keys: readonly string[];
  streams?: number;
  /** How long projects are created, in seconds. */
  durationS: number;
  /** Projects created per second. */
  createsPerSecond?: number;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchEventStream(options: EventStreamOptions): Promise<EventStreamResult> {
  const streamCount = options.streams ?? 100;
  const createsPerSecond = options.createsPerSecond ?? 10;
  if (options.keys.length < streamCount)
    throw new Error(`the event stream part needs ${streamCount} keys, got ${options.keys.length}`);

  const stop = new AbortController();
  const latencies: number[] = [];
  /** Per stream: the project ids of the `project.created` events it received. */
  const createdSeen = Array.from({ length: streamCount }, () => new Set<string>());
  let measuring = false;
  let failure: { error: unknown } | undefined;

  const followers = Array.from({ length: streamCount }, async (_, i) => {
    const client = createClient({ apiKey: options.keys[i]!, baseUrl: options.base });
    try {
      for await (const event of client.events.stream({ signal: stop.signal, maxReconnects: 3 })) {
        const receivedAt = Date.now();
        if (measuring) latencies.push(receivedAt - Date.parse(event.created_at));
        if (event.type === "project.created") createdSeen[i]!.add(projectOf(event));
      }
    } catch (error) {
      failure ??= { error };
      stop.abort();
    }
  });

  let creates = 0;
  const create = async (): Promise<string> => {
    const n = creates++;
    const key = options.keys[n % options.keys.length]!;
    const response = await fetch(`${options.base}/v1/projects`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
      },
      body: JSON.stringify({ name: `Stream bench ${n}`, prompt: "A benchmark project." }),
    });
    const body = (await response.json()) as { id?: string };
    if (response.status !== 201 || !body.id)
      throw new Error(`create for the event stream part: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body.id;
  };

  /** Resolves when every stream has received `project.created` of `projectId`, or throws after `ms`. */
  const everyStreamSaw = async (projectId: string, ms: number) => {
    const deadline = Date.now() + ms;
    while (!createdSeen.every((seen) => seen.has(projectId))) {
      if (failure)
        throw failure.error instanceof ApiError && failure.error.status === 404
          ? new Error("GET /v1/events/stream answered 404: this server has no event stream (run with --no-events)")
          : failure.error;
      if (Date.now() > deadline) return false;
      await sleep(20);
    }
    return true;
  };

  try {
    // Connected: the streams open on their first read; a first project's event reaching all of them
    // proves every one is following.
    const warmUp = await create();
    if (!(await everyStreamSaw(warmUp, 30_000)))
      throw new Error(`not every one of ${streamCount} streams received the warm-up event within 30 s`);

    measuring = true;
    const created: string[] = [];
    const interval = 1000 / createsPerSecond;
    const started = performance.now();
    const pending: Promise<void>[] = [];
    for (let n = 0; performance.now() - started < options.durationS * 1000; n++) {
      pending.push(create().then((id) => void created.push(id)));
      const next = started + (n + 1) * interval;
      await sleep(Math.max(0, next - performance.now()));
    }
    await Promise.all(pending);
    // The last events, and those of the runs the creates queued, have a few seconds to arrive.
    for (const id of created) await everyStreamSaw(id, 5_000);
    await sleep(1000);
    measuring = false;
    if (failure) throw failure.error;

    const sorted = latencies.sort((a, b) => a - b);
    return {
      streams: streamCount,
      projectsCreated: created.length,
      received: latencies.length,
      missing: created.reduce((sum, id) => sum + createdSeen.filter((seen) => !seen.has(id)).length, 0),
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? NaN,
    };
  } finally {
    stop.abort();
    await Promise.all(followers);
  }
}

function projectOf(event: StreamEvent): string {
  return (event.data.object as { id: string }).id;
}
