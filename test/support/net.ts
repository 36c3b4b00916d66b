import { readFileSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { inject } from "vitest";

/**
 * A TCP port nothing listens on right now, for a server to bind a moment later (a child process, or
 * one that must know its URL before it listens). Taken below the kernel's ephemeral range: a port of
 * that range, once released, can become the local port of any outgoing connection (to PostgreSQL, say)
 * before the server binds it, and its listen then fails with EADDRINUSE. Each vitest worker takes
 * its ports from a slice of that range of its own, so two test files running at once never pick the
 * same port between checking it and binding it (the run's offset, ports-setup.ts, keeps two runs
 * on one machine mostly apart too). Within a worker, a port is not handed out again until half its
 * slice has been since: a caller often takes two before binding either (a test server's API and
 * apps ports), and the second check would find the first one still free.
 */
export async function freePort(): Promise<number> {
  const [low, high] = workerPorts(
    portsBelowEphemeral(),
    (inject("portSliceOffset") ?? 0) + (Number(process.env.VITEST_POOL_ID) || 1),
  );
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (handedOut.has(port)) continue;
    if (await canListen(port)) {
      handedOut.add(port);
      // The oldest goes back into the draw once half the slice is out: long bound (or closed) by now.
      if (handedOut.size > (high - low + 1) / 2) handedOut.delete(handedOut.values().next().value!);
      return port;
    }
  }
  throw new Error(`no free port found between ${low} and ${high}`);
}

/** The ports this process's freePort has returned lately, oldest first: some may not be bound yet. */
const handedOut = new Set<number>();

/** Ports per worker: enough that a random pick rarely meets one in use. */
const SLICE = 1024;

/**
 * The `slice`th slice of SLICE ports of `[low, high]`, counting round: consecutive workers (1, 2, …)
 * get consecutive slices, as many as fit before they share.
 */
export function workerPorts([low, high]: [number, number], slice: number): [number, number] {
  const slices = Math.max(1, Math.floor((high - low + 1) / SLICE));
  const start = low + (slice % slices) * SLICE;
  return [start, Math.min(high, start + SLICE - 1)];
}

/** [first, last] of the ports no outgoing connection is given (Linux; elsewhere a conservative guess). */
function portsBelowEphemeral(): [number, number] {
  let ephemeralStart = 32768;
  try {
    ephemeralStart =
      Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || ephemeralStart;
  } catch {
    // not Linux: 32768 is the start of Linux's default range, and below macOS's and Windows' (49152)
  }
  return [Math.min(10_000, ephemeralStart - 1000), ephemeralStart - 1];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A plain TCP connection to an HTTP server, for tests about what happens below HTTP clients. */
export interface RawConnection {
  readonly socket: Socket;
  /** Everything received so far, as latin1 text. */
  received(): string;
  /** Resolves with what has been received once it matches `pattern` (rejects after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when the server has closed the connection, with the milliseconds since it opened. */
  readonly closed: Promise<number>;
}

/** Connects to the host and port of `url` (e.g. `http://127.0.0.1:8080`). */
export async function rawConnection(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const opened = Date.now();
  const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ""));
  let text = "";
  const watchers = new Set<() => void>();
  socket.on("data", (data) => {
    text += data.toString("latin1");
    for (const watch of watchers) watch();
  });
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now() - opened)));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
    void closed.then(() => resolve());
  });
  return {
    socket,
    received: () => text,
    closed,
    waitFor(pattern, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(text)) return false;
          watchers.delete(check);
          clearTimeout(timer);
          resolve(text);
          return true;
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`no ${pattern} within ${timeoutMs} ms; received ${JSON.stringify(text.slice(0, 300))}`));
        }, timeoutMs);
        if (!check()) watchers.add(check);
      });
    },
  };
}

/** The status and JSON body of the one HTTP/1.1 response in `text`. */
export function parseRawResponse(text: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head = "", ...rest] = text.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  const body = rest.join("\r\n\r\n");
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body: body && headers["content-type"]?.startsWith("application/json") ? JSON.parse(body) : body,
  };
}
