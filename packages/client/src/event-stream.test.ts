// The client's event stream (`client.events.stream`) against a fake server-sent-events server
// (node:http) that plays the wire format of GET /v1/events/stream: parsing (multi-line data,
// comments, CRLF, messages split across chunks, `retry:`), typed events narrowed by `types`,
// reconnection with Last-Event-ID after the server ends or drops the stream or goes silent, 429 and
// 503 waited out, 401 thrown as ApiError without a second request, the end by signal, break and
// return() (the request aborted at the server), and refusals of what is not an event stream.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rejectionOf } from "../../../test/support/rejection.ts";
import {
  ApiConnectionError,
  ApiError,
  createClient,
  EventStreamError,
  type ClientOptions,
  type EventOfType,
  type StreamEvent,
} from "./index.ts";

interface Seen {
  url: URL;
  headers: IncomingMessage["headers"];
  at: number;
  /** Resolves when the client closes (or the server ends) this connection. */
  closed: Promise<void>;
}

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
/** The current test's answer to connection number `n` (0 first). */
let answer: (res: ServerResponse, n: number, req: IncomingMessage) => void = (res) => res.writeHead(500).end();
const openResponses = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const closed = new Promise<void>((resolve) => res.on("close", resolve));
    seen.push({ url: new URL(req.url!, "http://x"), headers: req.headers, at: performance.now(), closed });
    openResponses.add(res);
    res.on("close", () => openResponses.delete(res));
    answer(res, seen.length - 1, req);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  for (const res of openResponses) res.destroy();
  seen = [];
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (options: Partial<ClientOptions> = {}) =>
  createClient({ apiKey: "svc_test_stream", baseUrl, backoff: { initialMs: 10, maxMs: 40 }, ...options });

let sequence = 0;
function runEvent(
  type: "agent_run.started" | "agent_run.succeeded",
  id = `evt_${String(++sequence).padStart(16, "0")}`,
): StreamEvent {
  return {
    id,
    type,
    created_at: "2026-11-26T12:00:00Z",
    workspace_id: "ws_8Hq2LmP4vR9xT3kN",
    livemode: false,
    data: {
      object: {
        id: "run_2bN7xQ4kLm9PzR3t",
        project_id: "prj_8kF2mQ9xLp3vR7tZ",
        status: type === "agent_run.succeeded" ? "succeeded" : "running",
      } as never, // the stream passes the object through; its whole shape is not the point here
    },
  };
}

function projectEvent(id = `evt_${String(++sequence).padStart(16, "0")}`): StreamEvent {
  return {
    id,
    type: "project.created",
    created_at: "2026-11-26T12:00:00Z",
    workspace_id: "ws_8Hq2LmP4vR9xT3kN",
    livemode: false,
    data: { object: { id: "prj_8kF2mQ9xLp3vR7tZ" } as never },
  };
}

/** An event as the server writes it: id, event, data, blank line. */
const message = (event: StreamEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

const openStream = (res: ServerResponse, status = 200) =>
  res.writeHead(status, { "content-type": "text/event-stream", "cache-control": "no-store" }).flushHeaders();

async function take<E>(iterator: AsyncIterable<E>, count: number): Promise<E[]> {
  const taken: E[] = [];
  if (count === 0) return taken;
  for await (const item of iterator) {
    taken.push(item);
    if (taken.length === count) break;
  }
  return taken;
}

// Compile-time checks (tsc runs over this file): the iterator is typed from the contract's union.
export function typeChecks() {
  return async () => {
    for await (const event of client().events.stream({ types: ["agent_run.succeeded", "project.created"] })) {
      const type: "agent_run.succeeded" | "project.created" = event.type;
      if (event.type === "agent_run.succeeded") {
        const status: string = event.data.object.status;
        void status;
      }
      void type;
      // @ts-expect-error a type that was not asked for is not among those received
      if (event.type === "deployment.ready") return;
    }
    // @ts-expect-error not an event type of the contract
    client().events.stream({ types: ["project.exploded"] });
    for await (const event of client().events.stream()) {
      const all: StreamEvent = event;
      void all;
    }
    const succeeded: EventOfType<"agent_run.succeeded"> = runEvent(
      "agent_run.succeeded",
    ) as EventOfType<"agent_run.succeeded">;
    // @ts-expect-error an agent run event is not a project event
    const wrong: EventOfType<"project.created"> = succeeded;
    void wrong;
  };
}

describe("client.events.stream: parsing", () => {
  it("reads typed events with multi-line data, comments, CRLF and messages split across writes, and asks with its filters", async () => {
    const [first, second, third] = [
      runEvent("agent_run.started"),
      runEvent("agent_run.succeeded"),
      runEvent("agent_run.succeeded"),
    ];
    answer = (res) => {
      openStream(res);
      res.write(": connected\n\n");
      res.write(message(first));
      // The JSON's fields on two data lines: the parser joins them with a newline, whitespace to JSON.
      const json = JSON.stringify(second);
      const [head, tail] = [json.slice(0, json.indexOf(',"created_at"')), json.slice(json.indexOf(',"created_at"'))];
      res.write(`id: ${second.id}\r\nevent: ${second.type}\r\ndata: ${head}\r\ndata: ${tail}\r\n\r\n`);
      // One message split mid-line across three writes, a heartbeat between.
      const text = message(third);
      res.write(": heartbeat\n");
      res.write(text.slice(0, 10));
      setTimeout(() => res.write(text.slice(10, 50)), 20);
      setTimeout(() => res.write(text.slice(50)), 40);
    };
    const stream = client().events.stream({
      project_id: "prj_8kF2mQ9xLp3vR7tZ",
      types: ["agent_run.started", "agent_run.succeeded"],
    });
    const events = await take(stream, 3);
    expect(events).toEqual([first, second, third]);
    expect(stream.lastEventId).toBe(third.id);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url.pathname).toBe("/v1/events/stream");
    expect(seen[0]!.url.searchParams.get("project_id")).toBe("prj_8kF2mQ9xLp3vR7tZ");
    expect(seen[0]!.url.searchParams.getAll("types")).toEqual(["agent_run.started", "agent_run.succeeded"]);
    expect(seen[0]!.headers.authorization).toBe("Bearer svc_test_stream");
    expect(seen[0]!.headers.accept).toBe("text/event-stream");
    expect(seen[0]!.headers["last-event-id"]).toBeUndefined();
  });

  it("passes only the types asked for, and skips messages without data", async () => {
    const [wanted, other] = [runEvent("agent_run.succeeded"), projectEvent()];
    answer = (res) => {
      openStream(res);
      res.write(message(other));
      res.write("event: ping\n\n");
      res.write(message(wanted));
    };
    const events = await take(client().events.stream({ types: ["agent_run.succeeded"] }), 1);
    expect(events).toEqual([wanted]);
  });

  it("sends last_event_id as Last-Event-ID", async () => {
    answer = (res) => {
      openStream(res);
      res.write(message(projectEvent()));
    };
    await take(client().events.stream({ last_event_id: "evt_0000000000000042" }), 1);
    expect(seen[0]!.headers["last-event-id"]).toBe("evt_0000000000000042");
  });

  it("throws EventStreamError for data that is not an event, and for an answer that is not an event stream", async () => {
    answer = (res) => {
      openStream(res);
      res.write("id: evt_1\ndata: {not json\n\n");
    };
    expect(await rejectionOf(take(client().events.stream(), 1))).toBeInstanceOf(EventStreamError);

    answer = (res) => res.writeHead(200, { "content-type": "text/html" }).end("<h1>proxy</h1>");
    const error = await rejectionOf(take(client().events.stream(), 1));
    expect(error).toBeInstanceOf(EventStreamError);
    expect((error as Error).message).toContain("text/html");
  });
});

describe("client.events.stream: reconnecting", () => {
  it("resumes with Last-Event-ID after the server drops the connection and after it ends the stream", async () => {
    const events = [
      runEvent("agent_run.started"),
      runEvent("agent_run.started"),
      runEvent("agent_run.started"),
      runEvent("agent_run.succeeded"),
    ];
    answer = (res, n) => {
      openStream(res);
      if (n === 0) {
        res.write(message(events[0]!));
        res.write(message(events[1]!));
        setTimeout(() => res.socket?.destroy(), 20); // a network failure mid-stream
      } else if (n === 1) {
        res.write(message(events[2]!));
        setTimeout(() => res.end(), 20); // the server ends the stream (a slow reader, a shutdown)
      } else {
        res.write(message(events[3]!));
      }
    };
    const reconnects: { failures: number; cause: unknown }[] = [];
    const received = await take(
      client().events.stream({ onReconnect: ({ failures, cause }) => reconnects.push({ failures, cause }) }),
      4,
    );
    expect(received).toEqual(events);
    expect(seen.map((request) => request.headers["last-event-id"])).toEqual([undefined, events[1]!.id, events[2]!.id]);
    // Told why: the broken connection's error, then nothing (the server ended a stream that had delivered).
    expect(reconnects).toEqual([
      { failures: 0, cause: expect.any(Error) },
      { failures: 0, cause: undefined },
    ]);
  });

  it("waits the server's retry: before reconnecting", async () => {
    answer = (res, n) => {
      openStream(res);
      if (n === 0) {
        res.write("retry: 400\n\n");
        res.end(message(projectEvent()));
      } else res.write(message(projectEvent()));
    };
    await take(client().events.stream(), 2);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(400);
  });

  it("reconnects when nothing, not even a heartbeat, arrives within idleTimeoutMs", async () => {
    const [first, second] = [projectEvent(), projectEvent()];
    answer = (res, n) => {
      openStream(res);
      res.write(message(n === 0 ? first : second)); // then silence: a half-open connection
    };
    const received = await take(client().events.stream({ idleTimeoutMs: 200 }), 2);
    expect(received).toEqual([first, second]);
    expect(seen[1]!.headers["last-event-id"]).toBe(first.id);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(200);
    await seen[0]!.closed; // the silent connection was given up, not left open
  });

  it("waits out a 429 for its Retry-After, and 503s with backoff, then streams", async () => {
    const event = projectEvent();
    answer = (res, n) => {
      const refusal = (status: number, code: string, headers: Record<string, string>) =>
        res
          .writeHead(status, { "content-type": "application/json", ...headers })
          .end(JSON.stringify({ error: { code, message: "refused", param: null, request_id: "req_x" } }));
      if (n === 0) refusal(429, "too_many_event_streams", { "retry-after": "1" });
      else if (n === 1) refusal(503, "service_unavailable", {});
      else {
        openStream(res);
        res.write(message(event));
      }
    };
    const reconnects: { delayMs: number; failures: number; cause: unknown }[] = [];
    expect(await take(client().events.stream({ onReconnect: (reconnect) => reconnects.push(reconnect) }), 1)).toEqual([
      event,
    ]);
    expect(seen).toHaveLength(3);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(reconnects).toEqual([
      {
        delayMs: 1000,
        failures: 1,
        cause: expect.objectContaining({
          name: "ApiError",
          status: 429,
          code: "too_many_event_streams",
          retryAfter: 1,
        }),
      },
      { delayMs: expect.any(Number), failures: 2, cause: expect.objectContaining({ name: "ApiError", status: 503 }) },
    ]);
  });

  it("throws a 401 as ApiError at once, without trying again", async () => {
    answer = (res) =>
      res.writeHead(401, { "content-type": "application/json", "x-request-id": "req_unauthorized01" }).end(
        JSON.stringify({
          error: {
            code: "invalid_api_key",
            message: "The API key is not valid.",
            param: null,
            request_id: "req_unauthorized01",
          },
        }),
      );
    const error = await rejectionOf(take(client().events.stream(), 1));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: "invalid_api_key", request_id: "req_unauthorized01" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toHaveLength(1);
  });

  it("gives up after maxReconnects attempts in a row that bring nothing: ApiError for a status, ApiConnectionError without an answer", async () => {
    answer = (res) =>
      res
        .writeHead(429, { "content-type": "application/json" })
        .end('{"error":{"code":"too_many_event_streams","message":"x","param":null,"request_id":null}}');
    const limited = await rejectionOf(take(client().events.stream({ maxReconnects: 2 }), 1));
    expect(limited).toMatchObject({ name: "ApiError", status: 429 });
    expect(seen).toHaveLength(3);

    const nobody = createClient({
      apiKey: "svc_test_stream",
      baseUrl: "http://127.0.0.1:9",
      backoff: { initialMs: 5, maxMs: 10 },
    });
    const unreachable = await rejectionOf(take(nobody.events.stream({ maxReconnects: 1 }), 1));
    expect(unreachable).toBeInstanceOf(ApiConnectionError);
    expect(unreachable).toMatchObject({ attempts: 2 });
  });

  it("counts a stream that ends before sending anything as a failure, with growing waits", async () => {
    answer = (res) => {
      openStream(res);
      res.end();
    };
    const error = await rejectionOf(
      take(client({ backoff: { initialMs: 40, maxMs: 1000 } }).events.stream({ maxReconnects: 3 }), 1),
    );
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(seen).toHaveLength(4);
    // Backoff 40, 80, 160 ms, each jittered to 50–100 %: at least 140 ms in all.
    expect(seen[3]!.at - seen[0]!.at).toBeGreaterThanOrEqual(140);
  });
});

describe("client.events.stream: ending", () => {
  it("ends without an error when its signal aborts while waiting, and closes the connection", async () => {
    answer = (res) => {
      openStream(res);
      res.write(message(projectEvent()));
    };
    const controller = new AbortController();
    const received: StreamEvent[] = [];
    const iteration = (async () => {
      for await (const event of client().events.stream({ signal: controller.signal })) received.push(event);
      return "ended";
    })();
    await expect.poll(() => received.length).toBe(1);
    controller.abort();
    expect(await iteration).toBe("ended");
    await seen[0]!.closed;
    expect(seen).toHaveLength(1);
  });

  it("closes the connection on break out of for await", async () => {
    answer = (res) => {
      openStream(res);
      res.write(message(projectEvent()));
    };
    expect(await take(client().events.stream(), 1)).toHaveLength(1);
    await seen[0]!.closed;
  });

  it("return() while next() waits settles both at once and closes the connection", async () => {
    answer = (res) => openStream(res); // headers, then nothing
    const stream = client().events.stream();
    const pending = stream.next();
    await expect.poll(() => seen.length).toBe(1);
    const started = performance.now();
    const [next, ended] = await Promise.all([pending, stream.return()]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(next).toEqual({ done: true, value: undefined });
    expect(ended).toEqual({ done: true, value: undefined });
    await seen[0]!.closed;
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it("ends during a wait between attempts when aborted, without another request", async () => {
    answer = (res) => res.writeHead(503, { "retry-after": "30" }).end();
    const controller = new AbortController();
    const iteration = take(client({ maxRetryAfterSeconds: 30 }).events.stream({ signal: controller.signal }), 1);
    await expect.poll(() => seen.length).toBe(1);
    controller.abort();
    expect(await iteration).toEqual([]);
    expect(seen).toHaveLength(1);
  });
});
