// Where the counters live: one interface, three stores beside it (memory, Redis, PostgreSQL), and
// the wrappers that insure a shared store (insured.ts) and spare it a round trip per request
// (leases.ts).

/** One window of a limiter: its counters' namespace, quota and length. */
export interface WindowSpec {
  readonly name: string;
  readonly limit: number;
  readonly durationMs: number;
}

/** A window's count after the grant (before it, when refused) and the time until it resets. */
export interface WindowCount {
  readonly count: number;
  readonly resetInMs: number;
}

export interface TakeResult {
  /** Requests granted: from 1 to the number asked for, or 0 when a window is full (refused). */
  readonly granted: number;
  /** In the order of the windows asked about. */
  readonly windows: readonly WindowCount[];
}

export interface RateLimitStore {
  readonly kind: "memory" | "redis" | "postgres";
  /**
   * Counts up to `requests` requests of `key` in every window, as many as every window has room
   * for (all windows alike), in one round trip; none when a window is full.
   */
  take(key: string, windows: readonly WindowSpec[], requests: number): Promise<TakeResult>;
  /** Gives back requests taken but not made, in windows that have not reset since (best effort). */
  giveBack(key: string, windows: readonly WindowSpec[], requests: number): Promise<void>;
  /** Releases what the store owns (a Redis connection it opened, a pool it created). */
  close(): Promise<void>;
}
