// The live event stream, `GET /v1/events/stream`: the workspace's events as server-sent events,
// followed as an async iterator of the contract's typed events that reconnects where it left off.
//
//   for await (const event of client.events.stream({ project_id, types: ["agent_run.succeeded"] })) …
//
// - Each message is `id: <event id>`, `event: <type>`, `data: <the event as JSON>`: the same object
//   as an item of `GET /v1/events` and a webhook delivery's body. Comments (the server's heartbeat,
//   every 15 s) only prove the connection alive. Parsed by eventsource-parser over the fetch body
//   (TextDecoderStream): web standards only, like the rest of the client.
// - Reconnecting: when the server ends the stream (it ends a reader that fell behind, and every
//   stream when it shuts down), the connection fails, or nothing at all (not even a heartbeat)
//   arrives for `idleTimeoutMs`, it connects again with `Last-Event-ID: <the last event's id>`, and
//   the server resumes right after that event. It waits the server's `retry:` when one came, at
//   least, else the client's jittered backoff, which grows with each attempt in a row that brought
//   nothing.
// - Refusals: 429 (too many open streams for the key, or a rate limit) and 500/502/503/504 are
//   waited out (`Retry-After` when given, else backoff) and tried again; any other error status
//   throws `ApiError` from the iteration at once, as a call would.
// - Ending: the caller's `signal` aborting, a `break` out of `for await`, `return()` or `close()`
//   end the iteration without an error, and abort the request in flight.
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { components } from "@project-builder/contract";
import { ApiConnectionError, ApiError } from "./errors.ts";
import { backoffDelay, parseRetryAfter, sleep } from "./timing.ts";

/** An event of the stream: one of the contract's events (the same as `GET /v1/events` lists). */
export type StreamEvent = components["schemas"]["Event"];
export type StreamEventType = StreamEvent["type"];

/** `E` narrowed to the types `T`: itself when all its types are in `T`, none when no type is. */
type NarrowEvent<E, T> = E extends { type: infer K }
  ? [K] extends [T]
    ? E
    : [Extract<K, T>] extends [never]
      ? never
      : E & { type: Extract<K, T> }
  : never;

/** The events of the types `T`, e.g. `EventOfType<"agent_run.succeeded">` is an `AgentRunEvent` of that type. */
export type EventOfType<T extends StreamEventType> = NarrowEvent<StreamEvent, T>;

export interface EventStreamOptions<T extends StreamEventType = StreamEventType> {
  /** Only this project's events. */
  project_id?: components["schemas"]["ProjectId"];
  /** Only events of these types (default: every type the key's scopes can read). */
  types?: readonly T[];
  /** Start right after this event (an id seen before, e.g. kept from `lastEventId`), within the events' retention. */
  last_event_id?: components["schemas"]["EventId"];
  /** Ends the stream when it aborts: the iteration ends, without an error. */
  signal?: AbortSignal;
  /**
   * Reconnect when nothing, not even a heartbeat, arrived for this long, in milliseconds (default
   * 45 000: three of the server's 15 s heartbeats); 0 never does. A connection a proxy or a sleeping
   * laptop left half-open sends nothing, and would otherwise be waited on for ever.
   */
  idleTimeoutMs?: number;
  /**
   * Attempts in a row that may fail (no connection, 429, 5xx, a stream that ended before sending
   * anything) before the iteration throws the last failure's `ApiError` or `ApiConnectionError`
   * (default: unlimited, reconnecting for as long as the stream is followed, as `EventSource` does).
   */
  maxReconnects?: number;
  /**
   * Called before each wait to reconnect (for a "reconnecting…" notice; it should not throw), with
   * the wait, the attempts in a row that brought nothing, and why: `cause` is the `ApiError` of a
   * 429 or 5xx, the network error of a failed connection or read, or undefined when the server
   * ended a stream that had delivered.
   */
  onReconnect?: (reconnect: { delayMs: number; failures: number; cause: unknown }) => void;
}

/** The stream's events as an async iterator (`for await`), which reconnects until it is ended. */
export interface EventStream<E = StreamEvent> extends AsyncIterableIterator<E, undefined, undefined> {
  /** The id of the last event received (or `last_event_id` until one is): where a new stream would resume. */
  readonly lastEventId: string | undefined;
  /** Ends the stream: aborts the request in flight; the iteration ends. */
  close(): void;
  /** Ends the stream, as `close()` does; called by `break` out of `for await`. */
  return(): Promise<IteratorReturnResult<undefined>>;
}

/**
 * The server answered 200 with something that is not an event stream of the contract's events (a
 * proxy's page, a message whose data is not an event, one longer than 8 Mi characters). Thrown from
 * the iteration, which ends: reconnecting would get the same.
 */
export class EventStreamError extends Error {
  override readonly name = "EventStreamError";
}

/** @internal What the stream takes of the client's options. */
export interface EventStreamConfig {
  baseUrl: string;
  headers: Record<string, string>;
  fetch: (request: Request) => Promise<Response>;
  maxRetryAfterMs: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

const STREAM_PATH = "/v1/events/stream";
const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
/** The most the parser holds of one message or line, in characters: an event is far smaller. */
const MAX_MESSAGE_CHARS = 8 * 1024 * 1024;
const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

/** @internal `client.events.stream(options)`. */
export function openEventStream<E>(config: EventStreamConfig, options: EventStreamOptions = {}): EventStream<E> {
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const maxReconnects = options.maxReconnects ?? Infinity;
  if (!(idleTimeoutMs >= 0)) throw new TypeError("idleTimeoutMs is 0 or more milliseconds.");
  if (!(maxReconnects >= 0)) throw new TypeError("maxReconnects is 0 or more.");

  const query = new URLSearchParams();
  if (options.project_id !== undefined) query.set("project_id", options.project_id);
  for (const type of options.types ?? []) query.append("types", type);
  const url = `${config.baseUrl.replace(/\/+$/, "")}${STREAM_PATH}${query.size ? `?${query.toString()}` : ""}`;
  const wanted = options.types?.length ? new Set<string>(options.types) : undefined;

  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let lastEventId = options.last_event_id;

  async function* follow(): AsyncGenerator<E, undefined, undefined> {
    /** Attempts in a row that brought nothing: they lengthen the backoff, and are bounded by maxReconnects. */
    let failures = 0;
    /** The server's `retry:`, in milliseconds: the least wait before reconnecting. */
    let serverRetryMs = 0;

    /** Counts a failed attempt; false when no more may be made. Then waits before the next (false when ended meanwhile). */
    const waitBeforeRetry = (cause: unknown, asked?: number): Promise<boolean> => {
      failures++;
      return wait(
        Math.max(serverRetryMs, asked ?? backoffDelay(failures - 1, config.initialBackoffMs, config.maxBackoffMs)),
        cause,
      );
    };
    /** Waits before reconnecting; false when the stream was ended meanwhile. */
    const wait = (delayMs: number, cause: unknown): Promise<boolean> => {
      options.onReconnect?.({ delayMs, failures, cause });
      return sleep(delayMs, signal).then(
        () => true,
        () => false,
      );
    };

    while (!signal.aborted) {
      // One attempt: ended by the caller (signal), or by the idle timer (this connection only).
      const connection = new AbortController();
      let idleTimer: ReturnType<typeof setTimeout> | undefined;
      const restartIdleTimer = () => {
        clearTimeout(idleTimer);
        if (idleTimeoutMs > 0)
          idleTimer = setTimeout(
            () => connection.abort(new Error(`Nothing received for ${idleTimeoutMs} ms.`)),
            idleTimeoutMs,
          );
      };
      const request = new Request(url, {
        headers: {
          ...config.headers,
          Accept: "text/event-stream",
          ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}),
        },
        signal: AbortSignal.any([signal, connection.signal]),
      });
      let received = false;
      let failure: unknown;
      try {
        restartIdleTimer();
        let response: Response;
        try {
          response = await config.fetch(request);
        } catch (error) {
          if (signal.aborted) return undefined;
          if (failures >= maxReconnects)
            throw new ApiConnectionError(request, failures + 1, error, connection.signal.aborted);
          if (!(await waitBeforeRetry(error))) return undefined;
          continue;
        }

        if (!response.ok) {
          const body = await readErrorBody(response);
          if (signal.aborted) return undefined;
          const refusal = new ApiError(response, body);
          if (!RETRIED_STATUSES.has(response.status) || failures >= maxReconnects) throw refusal;
          const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
          const asked = retryAfter === null ? undefined : Math.min(retryAfter * 1000, config.maxRetryAfterMs);
          const backoff = backoffDelay(failures, config.initialBackoffMs, config.maxBackoffMs);
          // A 429 waits what it was told (else the backoff); a 5xx at least the backoff, so a failing server is not hammered.
          if (
            !(await waitBeforeRetry(
              refusal,
              response.status === 429 ? (asked ?? backoff) : Math.max(asked ?? 0, backoff),
            ))
          )
            return undefined;
          continue;
        }

        const contentType = response.headers.get("content-type") ?? "";
        if (!response.body || !/^text\/event-stream\b/i.test(contentType)) {
          await response.body?.cancel().catch(() => {});
          throw new EventStreamError(
            `Expected an event stream (text/event-stream) from ${url}, got ${contentType || "no content type"}.`,
          );
        }

        const messages: EventSourceMessage[] = [];
        let overflow = false;
        const parser = createParser({
          onEvent: (message) => messages.push(message),
          onRetry: (ms) => (serverRetryMs = ms),
          // Unknown fields and unreadable `retry:` values are ignored, as the standard asks.
          onError: (error) => (overflow ||= error.type === "max-buffer-size-exceeded"),
          maxBufferSize: MAX_MESSAGE_CHARS,
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        try {
          for (;;) {
            let chunk: Awaited<ReturnType<typeof reader.read>>;
            try {
              chunk = await reader.read();
            } catch (error) {
              // The connection broke or went idle (or the caller ended the stream: returns below).
              failure = error;
              break;
            }
            if (chunk.done) break;
            restartIdleTimer();
            if (!received) {
              received = true;
              failures = 0;
            }
            parser.feed(chunk.value);
            if (overflow)
              throw new EventStreamError(
                `An event stream message from ${url} is longer than ${MAX_MESSAGE_CHARS} characters.`,
              );
            while (messages.length > 0) {
              const message = messages.shift()!;
              if (message.id !== undefined) lastEventId = message.id || undefined;
              const event = parseEvent(message);
              if (event !== undefined && (!wanted || wanted.has(event.type))) yield event as E;
            }
          }
        } finally {
          reader.cancel().catch(() => {});
        }
      } finally {
        clearTimeout(idleTimer);
      }
      if (signal.aborted) return undefined;
      // The stream ended or broke: connect again, resuming after lastEventId. One that brought nothing is a failure.
      if (received) {
        if (!(await wait(serverRetryMs || backoffDelay(0, config.initialBackoffMs, config.maxBackoffMs), failure)))
          return undefined;
        continue;
      }
      const cause = failure ?? new Error("The event stream ended before sending anything.");
      if (failures >= maxReconnects)
        throw new ApiConnectionError(request, failures + 1, cause, connection.signal.aborted);
      if (!(await waitBeforeRetry(cause))) return undefined;
    }
    return undefined;
  }

  const generator = follow();
  return {
    get lastEventId() {
      return lastEventId;
    },
    close() {
      stop.abort();
    },
    next: () => generator.next(),
    // Aborting first settles a read in flight, so a return() while next() waits ends both at once
    // (a generator alone would queue the return behind the read, up to a heartbeat later).
    return: async () => {
      stop.abort();
      await generator.return(undefined);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** An error answer's body: the contract's error object (JSON), or its text. */
async function readErrorBody(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  } catch {
    return undefined;
  }
}

/** A message's event; undefined for a message without data, which the standard does not dispatch. */
function parseEvent(message: EventSourceMessage): StreamEvent | undefined {
  if (message.data === "") return undefined;
  let event: unknown;
  try {
    event = JSON.parse(message.data);
  } catch {
    throw new EventStreamError(`An event stream message's data is not JSON: ${message.data.slice(0, 200)}`);
  }
  if (
    typeof event !== "object" ||
    event === null ||
    typeof (event as { type?: unknown }).type !== "string" ||
    typeof (event as { id?: unknown }).id !== "string"
  ) {
    throw new EventStreamError(`An event stream message's data is not an event: ${message.data.slice(0, 200)}`);
  }
  return event as StreamEvent;
}
