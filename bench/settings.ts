// The benchmark's flags and fixed settings (bench/run.ts), shared by its drivers and its report.
import { resolve } from "node:path";
import { parseArgs } from "node:util";

export const root = resolve(import.meta.dirname, "..");
export const { values: flags } = parseArgs({
  allowNegative: true,
  options: {
    quick: { type: "boolean", default: false },
    drivers: { type: "string", default: "pglite,postgres,postgres+redis" },
    scenarios: { type: "string" },
    duration: { type: "string" },
    rounds: { type: "string" },
    keys: { type: "string", default: "300" },
    scale: { type: "boolean" },
    profile: { type: "boolean" },
    routing: { type: "boolean" },
    mcp: { type: "boolean" },
    "db-proxy": { type: "boolean", default: false },
    events: { type: "boolean" },
    "fair-share": { type: "boolean" },
    out: { type: "string" },
  },
});
// The extra parts run by default, except in a quick run; `--no-scale` etc. turn one off.
export const SCALE = flags.scale ?? !flags.quick;
export const PROFILE = flags.profile ?? !flags.quick;
export const ROUTING = flags.routing ?? true;
export const MCP = flags.mcp ?? true;
/** The live event stream's latency at 100 open streams, on the PostgreSQL drivers (bench/event-stream.ts). */
export const EVENTS = flags.events ?? true;
/** Another tenant's create → ready behind a flood, on a fresh server per driver (bench/fair-share.ts). */
export const FAIR_SHARE = flags["fair-share"] ?? true;
export const DURATION = Number(flags.duration ?? (flags.quick ? 3 : 10));
export const ROUNDS = Number(flags.rounds ?? (flags.quick ? 1 : 3));
export const KEY_COUNT = Number(flags.keys);
/** PostgreSQL through a TCP proxy of its own process (bench/db-proxy.ts): each statement pays a round trip. */
export const DB_PROXY = flags["db-proxy"];
export const CONNECTIONS = 10;
export const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
export const LIST_COPIES = 10_100;
export const CURSOR_PAGES = 500;
/** Requests of each scenario's statement census (statementCensus). */
// Two seconds' worth at the rounds' rate, up to this: a key's rate-limit lease (a tenth of its burst,
// for the second) is a statement per lease, so the census must see each key at the rounds' pace. At
// 500 requests, sent in a fraction of a second over 300 keys, nearly every request took a lease of
// its own (a GET counted 1.6 statements where the rounds counted 1.2).
export const CENSUS_REQUESTS = 6000;
export const FILE = Buffer.alloc(1024 * 1024, "benchmark file content\n");

export type Driver = "pglite" | "postgres" | "postgres+redis";
export const DRIVERS = flags.drivers.split(",") as Driver[];
// In the order they run: create last, as each create queues an agent run the server then works on.
const ALL_SCENARIOS = ["get", "list", "cursor500", "401", "429", "download", "upload", "create"] as const;
export type ScenarioName = (typeof ALL_SCENARIOS)[number];
export const SCENARIOS = ALL_SCENARIOS.filter((name) => !flags.scenarios || flags.scenarios.split(",").includes(name));
/** Scenarios profiled on PostgreSQL: the hot reads, and the write whose goals are hardest. */
export const PROFILED_SCENARIOS: ScenarioName[] = ["get", "list", "create"];
export const TARGETS = ["server", "bare-node", "openapi-backend", "prism"] as const;
export type TargetName = (typeof TARGETS)[number];

// ------------------------------------------------------------------------------------------------
// Processes
