// Raw HTTP for the reliability suites: requests exactly as a test writes them (any method, header,
// content type or body bytes; node's fetch would refuse or normalise many), over keep-alive
// connections, answered as status, headers and body bytes. A request the server answers before it
// has read the whole body (413, 415) resolves with that answer; the rest of the body is dropped.
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface RawRequest {
  readonly method: string;
  /** The request target as sent: percent-encode what must be. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | number>>;
  readonly body?: string | Buffer;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** The body parsed when the response says it is JSON; undefined otherwise (or when it is not JSON). */
  readonly json: unknown;
  /** Milliseconds from sending to the last byte. */
  readonly ms: number;
}

export interface RawClient {
  send(request: RawRequest, options?: { timeoutMs?: number }): Promise<RawResponse>;
  close(): void;
}

/** A client of `baseUrl` that reuses up to `connections` keep-alive connections. */
export function rawClient(baseUrl: string, connections = 4): RawClient {
  const { hostname, port } = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const send = (request: RawRequest, options: { timeoutMs?: number } = {}, retried = false): Promise<RawResponse> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const outgoing = httpRequest({
        host: hostname,
        port,
        method: request.method,
        path: request.path,
        headers: request.headers,
        agent,
      });
      let answered = false;
      outgoing.setTimeout(options.timeoutMs ?? 30_000, () =>
        outgoing.destroy(new Error(`no answer to ${request.method} ${request.path.slice(0, 200)} in time`)),
      );
      outgoing.on("response", (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const body = Buffer.concat(chunks);
          let json: unknown;
          if (/^application\/json/.test(response.headers["content-type"] ?? "")) {
            try {
              json = JSON.parse(body.toString("utf8"));
            } catch {
              json = undefined;
            }
          }
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body,
            json,
            ms: performance.now() - started,
          });
        });
      });
      // The server may answer and close before the body is all sent: that is its right.
      outgoing.on("error", (error: NodeJS.ErrnoException) => {
        const reset = ["EPIPE", "ECONNRESET"].includes(error.code ?? "");
        if (answered && reset) return;
        // A kept-alive connection the server closed as the request went out: send it once more
        // on a new one (node's documented remedy for this race).
        if (reset && outgoing.reusedSocket && !retried) return void send(request, options, true).then(resolve, reject);
        reject(error);
      });
      outgoing.end(request.body);
    });
  return { send, close: () => agent.destroy() };
}

/** The p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error("no values");
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
