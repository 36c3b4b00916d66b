// Preload for the server under benchmark: `node --import ./bench/count-statements.ts src/main.ts`.
// Counts database statements at the driver — pg's Client.prototype.query and PGlite's
// query/exec/transaction (and the query/exec of the transaction object it hands out), hooked by
// statement-hooks.ts — by normalized text, and serves the counts as JSON on
// 127.0.0.1:$BENCH_COUNTER_PORT (GET /).
//
// A census tells a request's own statements from background work (batched audit rows, job polling,
// the agent runs creates queue): while on (GET /census/start … GET /census/stop, which answers the
// totals), a statement sent while an HTTP request is being handled (an AsyncLocalStorage entered at
// each request) counts for the request path, except the audit rows' INSERT: it runs on a timer a
// request started, but carries the rows of many.
import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import { createServer, Server } from "node:http";
import pg from "pg";
import { hookStatements } from "./statement-hooks.ts";

const counts = new Map<string, number>();
const inRequest = new AsyncLocalStorage<true>();
const emit = Server.prototype.emit;
// Both hooks act only while a census is on: the timed rounds pay for counting alone.
Server.prototype.emit = function (this: Server, ...args: unknown[]) {
  const send = () => Reflect.apply(emit, this, args) as boolean;
  return census && args[0] === "request" ? inRequest.run(true, send) : send();
} as typeof emit;
// pg-pool runs a queued query's callback when another query releases its client, in that one's
// context: bound to the caller's, the statement is counted where it was asked for.
const connect = pg.Pool.prototype.connect as (this: pg.Pool, callback?: (...args: unknown[]) => void) => unknown;
pg.Pool.prototype.connect = function (this: pg.Pool, callback?: (...args: unknown[]) => void) {
  return connect.call(this, callback && census ? AsyncResource.bind(callback) : callback);
} as typeof pg.Pool.prototype.connect;
let census: { requestPath: number; background: number } | undefined;

// The server sends a few dozen texts, each thousands of times: each is normalized once, so that
// counting costs the server under benchmark a lookup per statement rather than five regexps (the
// profiles showed `normalize` at 2–3% of the server's busy time).
const normalized = new Map<string, string>();
function normalize(text: string): string {
  let key = normalized.get(text);
  if (key === undefined) {
    key = normalizeText(text);
    if (normalized.size < 10_000) normalized.set(text, key);
  }
  return key;
}

function normalizeText(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/\$\d+/g, "$n")
    .replace(/'[^']*'/g, "'…'")
    .trim()
    .slice(0, 140);
}

function countInCensus(key: string): void {
  if (!census) return;
  if (inRequest.getStore() && !key.startsWith("insert into audit_log")) census.requestPath++;
  else census.background++;
}

function count(text: string): void {
  const key = normalize(text);
  countInCensus(key);
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

hookStatements(count);

const port = Number(process.env.BENCH_COUNTER_PORT);
if (port) {
  const server = createServer((request, response) => {
    let body: unknown = Object.fromEntries(counts);
    if (request.url === "/census/start") census = { requestPath: 0, background: 0 };
    if (request.url === "/census/stop") {
      body = census;
      census = undefined;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  server.listen(port, "127.0.0.1");
  server.unref();
}
