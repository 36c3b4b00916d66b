import { readFileSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";

/**
 * A TCP port nothing listens on right now, for a program that must be told its port before it
 * starts (Prism, haproxy, a mock's bin): servers of our own bind port 0 and say where they listen.
 * Taken at random below the kernel's ephemeral range: a port of that range, once released, can
 * become the local port of any outgoing connection (to PostgreSQL, say) before the program binds
 * it. A port is not handed out again by this process until many others have been.
 */
export async function freePort(): Promise<number> {
  const [low, high] = portsBelowEphemeral();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (handedOut.has(port)) continue;
    if (await canListen(port)) {
      handedOut.add(port);
      if (handedOut.size > 1000) handedOut.delete(handedOut.values().next().value!);
      return port;
    }
  }
  throw new Error(`no free port found between ${low} and ${high}`);
}

/** The ports this process's freePort has returned lately, oldest first: some may not be bound yet. */
const handedOut = new Set<number>();

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
