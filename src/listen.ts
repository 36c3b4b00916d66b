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
// - request headers up to `maxHeaderSize` bytes (16 KiB), larger ones answered 431.
// Node checks the header and request timeouts every `connectionsCheckingInterval`; it is one second
// here (Node's default, 30 s, would let a slow header hang on for up to 50 s).
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ServerLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly maxConnections: number;
  readonly maxHeaderSize: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = Object.freeze({
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 5 * 60_000,
  keepAliveTimeoutMs: 90_000,
  idleTimeoutMs: 2 * 60_000,
  maxConnections: 10_000,
  maxHeaderSize: 16 * 1024,
});

/** How often Node looks for requests past their header or request timeout. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

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
    listener,
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
