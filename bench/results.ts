// What the benchmark measures, as its drivers record it and its report reads it.
import type { EventStreamResult } from "./event-stream.ts";
import type { FairShareResult } from "./fair-share.ts";
import type { Driver, ScenarioName, TargetName } from "./settings.ts";

/** What the profile phase loads a server with: a scenario, or the MCP part's pair. */
export type ProfiledLoad = ScenarioName | "mcp";

export interface Round {
  readonly requests: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly statuses: Record<string, number>;
  readonly errors: number;
  readonly cpuMsPerRequest: number;
  /** The load generator's CPU per request (autocannon, in the bench's own process, on the same cores). */
  readonly loadCpuMsPerRequest?: number;
  /** PostgreSQL's CPU per request (NaN on PGlite, which runs inside the server's process). */
  readonly databaseCpuMsPerRequest: number;
}

export interface Row {
  driver: Driver;
  scenario: ScenarioName;
  expect: number;
  targets: Partial<Record<TargetName, Round[]>>;
  statements: Record<string, number>;
  statementsPerRequest: number;
  /** From the census: the request's own statements, and background work's, per request. */
  census?: { requestPath: number; background: number };
}

interface ScaleRow {
  size: string;
  scenario: string;
  rounds: Round[];
}

export interface DriverInfo {
  driver: Driver;
  startup: Record<string, number>;
  rss: Record<string, number>;
  /** get/list/cursor500 with 100 projects, and with 100,000 projects and a large audit table. */
  scale?: ScaleRow[];
  scaleNote?: string;
  /** Summaries of CPU profiles of the server, by scenario. */
  profiles?: Partial<Record<ProfiledLoad, string[]>>;
  /** GET over REST and the MCP pair (tools/list + tools/call of getProject), interleaved rounds. */
  /** The GET, the pair, and each message of the pair alone (what each costs). */
  mcp?: { get: Round[]; mcp: Round[]; list: Round[]; call: Round[] };
  /** Event written → received on 100 open streams of GET /v1/events/stream. */
  eventStream?: EventStreamResult;
  /** Another tenant's create → ready, alone and behind a flood (pglite and postgres). */
  fairShare?: FairShareResult;
}

export const median = (values: number[]): number => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
