// Preload for the server under benchmark: `node --import ./bench/count-statements.ts src/main.ts`.
// Counts database statements at the driver — pg's Client.prototype.query and PGlite's
// query/exec/transaction (and the query/exec of the transaction object it hands out) — by
// normalized text, and serves the counts as JSON on 127.0.0.1:$BENCH_COUNTER_PORT (GET /).
import { createServer } from "node:http";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

const counts = new Map<string, number>();

function normalize(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/\$\d+/g, "$n")
    .replace(/'[^']*'/g, "'…'")
    .trim()
    .slice(0, 140);
}

function count(text: unknown): void {
  const raw = typeof text === "string" ? text : typeof (text as { text?: unknown })?.text === "string" ? (text as { text: string }).text : "?";
  const key = normalize(raw);
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;

function wrap(target: object, name: string): void {
  const original = (target as Record<string, AnyFn>)[name];
  if (typeof original !== "function") return;
  (target as Record<string, AnyFn>)[name] = function (this: unknown, ...args: unknown[]) {
    count(args[0]);
    return original.apply(this, args);
  };
}

wrap(pg.Client.prototype, "query");

const pgliteProto = PGlite.prototype as unknown as Record<string, AnyFn>;
wrap(pgliteProto, "query");
wrap(pgliteProto, "exec");
const transaction = pgliteProto.transaction;
pgliteProto.transaction = function (this: unknown, ...args: unknown[]) {
  count("BEGIN (pglite transaction)");
  const callback = args[0] as (tx: object) => unknown;
  args[0] = (tx: object) => {
    wrap(tx, "query");
    wrap(tx, "exec");
    return callback(tx);
  };
  return transaction.apply(this, args);
};

const port = Number(process.env.BENCH_COUNTER_PORT);
if (port) {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Object.fromEntries(counts)));
  });
  server.listen(port, "127.0.0.1");
  server.unref();
}
