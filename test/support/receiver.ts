// A local webhook receiver for tests: records every request it gets (headers and raw body) and
// answers as the test tells it, per path.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/** How to answer a request: a status (and body), or a function that writes the answer itself. */
export type Answer =
  | number
  | { status: number; body?: string; headers?: Record<string, string> }
  | ((response: ServerResponse, received: Received) => void);

export interface Receiver {
  /** The receiver's base URL, e.g. http://127.0.0.1:PORT. */
  readonly url: string;
  readonly received: Received[];
  /** Answers requests to `path` with each answer in turn, the last one for ever after (default 200). */
  answer(path: string, ...answers: Answer[]): void;
  /** Resolves once `count` requests reached `path` (or fails after `timeoutMs`). */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, Answer[]>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry: Received = {
        path: request.url ?? "/",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      received.push(entry);
      const script = scripts.get(entry.path) ?? [200];
      const answer = script.length > 1 ? script.shift()! : script[0]!;
      if (typeof answer === "function") return answer(response, entry);
      const { status, body, headers } =
        typeof answer === "number" ? { status: answer, body: "ok", headers: {} } : answer;
      response.writeHead(status, { "Content-Type": "text/plain", ...headers }).end(body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (path, ...answers) => void scripts.set(path, answers),
    async waitFor(path, count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter((entry) => entry.path === path);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline)
          throw new Error(`${path} received ${matching.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
