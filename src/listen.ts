// The node:http servers of the API and the apps listener: created with the same limits, started the
// same way.
//
// The limits are chosen, not Node's defaults (docs/operations.md, "Limits on every connection"):
// - headers must arrive within `headersTimeoutMs` (20 s) of the connection or of the request's
//   start: a slow-loris client that trickles header lines, or a connection that never sends a
//   byte, is cut then, with a 408;
// - a whole request, body included, within `requestTimeoutMs` (5 min): a 25 MiB upload over a link
//   of about 1 Mbit/s still fits;
// - an idle keep-alive connection is kept `keepAliveTimeoutMs` (90 s), longer than the idle timeout
//   of the load balancers that usually sit in front (AWS ALB 60 s, nginx 60–75 s), so it is always
//   the balancer that closes an idle connection, never this server under a request the balancer
//   has just sent on it (which the balancer would answer 502);
// - a connection on which nothing moves for `idleTimeoutMs` (2 min) while a request is open is
//   closed, so a client that stops reading its download cannot hold the connection forever;
// - at most `maxConnections` (10,000) connections at once, so a flood of connections cannot
//   exhaust file descriptors: further ones are closed as they arrive;
// - request headers up to `maxHeaderSize` bytes (16 KiB), larger ones answered 431;
// - a body answered before it was read to the end (a refusal: 401, 413, 415…) is read and
//   discarded after the answer, up to `unreadBodyBytes` (1 MiB) within `unreadBodyMs` (5 s), so
//   that a client still sending it hears the answer and keeps its connection. Past that bound (or
//   when the declared length is past it) the connection is closed as Go's and nginx's servers
//   close it: our side first (FIN, after the answer), then the socket `CLOSE_LINGER_MS` later.
//   Closing at once would reset the connection under a client that is still writing (Node's
//   fetch fails with EPIPE), often before it has read the answer.
// Node checks the header and request timeouts every `connectionsCheckingInterval`; it is one second
// here (Node's default, 30 s, would let a slow header hang on for up to 50 s).
import { createServer, type IncomingMessage, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ServerLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly maxConnections: number;
  readonly maxHeaderSize: number;
  readonly unreadBodyBytes: number;
  readonly unreadBodyMs: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = Object.freeze({
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 5 * 60_000,
  keepAliveTimeoutMs: 90_000,
  idleTimeoutMs: 2 * 60_000,
  maxConnections: 10_000,
  maxHeaderSize: 16 * 1024,
  unreadBodyBytes: 1024 * 1024,
  unreadBodyMs: 5_000,
});

/** How often Node looks for requests past their header or request timeout. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/** How long a connection closed past the unread body's bound stays open for the client to read the answer. */
export const CLOSE_LINGER_MS = 1_000;

/** A node:http server with these limits (Node requires headersTimeout ≤ requestTimeout). */
export function createLimitedServer(limits: ServerLimits, listener: RequestListener): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderSize,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS, limits.headersTimeoutMs),
    },
    (request, response) => {
      // As the answer ends, before it finishes: Node discards an unread body itself when the answer
      // has finished, without a bound.
      response.once("prefinish", () => discardUnreadBody(request, limits));
      listener(request, response);
    },
  );
  server.maxConnections = limits.maxConnections;
  server.timeout = limits.idleTimeoutMs;
  return server;
}

/** Listens on `host:port` (0: any free port) and resolves with the base URL it bound. */
export function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { address, port: bound } = server.address() as AddressInfo;
      resolve(`http://${address.includes(":") ? `[${address}]` : address}:${bound}`);
    });
  });
}

/** Reads the rest of an answered request's body within the limits; closes the connection if it is not over by then. */
function discardUnreadBody(request: IncomingMessage, limits: ServerLimits): void {
  const socket = request.socket;
  if (request.complete || socket.destroyed) return;
  // A declared length past the bound would be read in vain: the connection ends with the answer.
  if (Number(request.headers["content-length"]) > limits.unreadBodyBytes) return endConnection(request);
  let discarded = 0;
  const stop = () => {
    clearTimeout(timer);
    request.off("data", count);
    request.off("end", stop);
    socket.off("close", stop);
  };
  const close = () => {
    stop();
    endConnection(request);
  };
  const count = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.unreadBodyBytes) close();
  };
  const timer = setTimeout(close, limits.unreadBodyMs).unref();
  request.on("data", count);
  request.once("end", stop);
  socket.once("close", stop);
  request.resume();
}

/** Ends our side of the connection once the answer is out, and drops the socket a moment later. */
function endConnection(request: IncomingMessage): void {
  request.pause();
  request.socket.end();
  setTimeout(() => request.socket.destroy(), CLOSE_LINGER_MS).unref();
}
