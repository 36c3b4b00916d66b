// Telling "the database cannot be reached right now" apart from every other failure: the first is
// answered `503 service_unavailable` with Retry-After and heals by itself (node-postgres replaces
// broken connections on the next query), the second is a bug (500). Only the PostgreSQL driver
// has such outages; PGlite runs inside the process.
//
// Recognised, anywhere along an error's `cause` chain (drizzle wraps the driver's error):
// - socket errors: refused, reset, timed out, unreachable, a name that does not resolve;
// - node-postgres' own: a connection that ended mid-query, a client no longer queryable, no
//   connection within the pool's connection timeout;
// - PostgreSQL's SQLSTATE class 08 (connection exception), 57P01–57P03 (shutting down, crashed,
//   starting up) and 53300 (too many connections).
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const DRIVER_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

export function isStorageUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth++) {
    if (current instanceof AggregateError && current.errors.some(isStorageUnavailable)) return true;
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === "string" && (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)))
      return true;
    if (DRIVER_MESSAGES.test(current.message)) return true;
  }
  return false;
}
