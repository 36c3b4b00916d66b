// Leases: a replica takes a key's requests from the shared store a batch at a time and makes them
// from memory, so a request costs a round trip to Redis or PostgreSQL only when its key's lease is
// spent — not one each.
//
// Decisions:
// - A lease is a tenth of the key's smallest window (its burst), at least one request: 10 of an
//   enterprise key's 100 a second, 1 of a free key's 10. It is taken from every window at once
//   in one statement, so the store's counts include every lease: replicas together never admit
//   more than a window's limit. The price is the other way: a request may be refused while
//   requests leased to another replica wait there unmade, at most (lease − 1) per other replica
//   (free and pro keys: none, their lease is one request; a free key's 60 a minute over two replicas
//   admits exactly 60).
// - A lease ends with the earliest of its windows (the second): what it did not make ends with it.
//   A replica that stops (SIGTERM) gives back what its leases did not make in windows still open.
// - A refusal is remembered in the process until the full window resets: a window's count only
//   grows until then, so asking the store again could only give the same answer, and a key
//   hammering past its limit costs no round trip (nor a turn on its counter's row lock). Keyed by
//   the windows' limits too, so a plan change is asked afresh.
// - Concurrent requests of a key whose lease is spent wait for one take rather than each taking.
// - Bounded: at most `maxKeys` keys are leased or remembered (the oldest forgotten first).
import type { RateLimitStore, WindowCount, WindowSpec } from "./store.ts";

/** A lease's share of the key's smallest window. */
const LEASE_SHARE = 0.1;
/** A lease whose window ends sooner than this is not given back: the counter may have reset meanwhile. */
const GIVE_BACK_MARGIN_MS = 100;

export function leaseSize(windows: readonly WindowSpec[]): number {
  return Math.max(1, Math.floor(Math.min(...windows.map((window) => window.limit)) * LEASE_SHARE));
}

export interface CountResult {
  readonly allowed: boolean;
  /** Each window's count after the request (before it, when refused) and the time until it resets. */
  readonly windows: readonly WindowCount[];
}

/** Charges requests one at a time. */
export interface RequestCounter {
  count(key: string, windows: readonly WindowSpec[]): Promise<CountResult>;
  close(): Promise<void>;
}

interface Lease {
  readonly key: string;
  readonly windows: readonly WindowSpec[];
  /** Requests taken and not yet made. */
  left: number;
  /** No request was granted: a refusal remembered until `until`. */
  readonly refused: boolean;
  /** When it ends: a lease with its earliest window, a refusal with the full window. */
  readonly until: number;
  /** Each window's count as the store answered, this lease's requests included. */
  readonly counts: readonly number[];
  readonly resetsAt: readonly number[];
}

/** One request at a time from a store that is the process's own (memory): nothing to lease. */
export function direct(store: RateLimitStore): RequestCounter {
  return {
    async count(key, windows) {
      const { granted, windows: counts } = await store.take(key, windows, 1);
      return { allowed: granted === 1, windows: counts };
    },
    close: () => store.close(),
  };
}

export function leased(store: RateLimitStore, options: { maxKeys?: number } = {}): RequestCounter {
  const maxKeys = options.maxKeys ?? 10_000;
  const leases = new Map<string, Lease>();
  const taking = new Map<string, Promise<void>>();

  const answer = (lease: Lease, allowed: boolean, now: number): CountResult => ({
    allowed,
    // What this replica has not made yet is not used: the counts as the store gave them, less that.
    windows: lease.counts.map((count, i) => ({ count: count - lease.left, resetInMs: lease.resetsAt[i]! - now })),
  });

  async function take(memo: string, key: string, windows: readonly WindowSpec[]): Promise<void> {
    const { granted, windows: counted } = await store.take(key, windows, leaseSize(windows));
    const now = Date.now();
    const resetsAt = counted.map((window) => now + window.resetInMs);
    const full = resetsAt.filter((_, i) => counted[i]!.count >= windows[i]!.limit);
    leases.delete(memo);
    if (leases.size >= maxKeys) leases.delete(leases.keys().next().value!);
    leases.set(memo, {
      key,
      windows,
      left: granted,
      refused: granted === 0,
      until: granted > 0 ? Math.min(...resetsAt) : Math.max(now, ...full),
      counts: counted.map((window) => window.count),
      resetsAt,
    });
  }

  return {
    async count(key, windows) {
      const memo = `${key}|${windows.map((window) => `${window.name}=${window.limit}`).join(",")}`;
      for (;;) {
        const lease = leases.get(memo);
        const now = Date.now();
        if (lease && lease.until > now) {
          if (lease.left > 0) {
            lease.left--;
            return answer(lease, true, now);
          }
          if (lease.refused) return answer(lease, false, now);
        }
        // No lease, or one spent or ended: one take for every request of the key waiting.
        let pending = taking.get(memo);
        if (!pending) {
          pending = take(memo, key, windows).finally(() => taking.delete(memo));
          taking.set(memo, pending);
        }
        await pending;
      }
    },
    async close() {
      const now = Date.now();
      await Promise.all(
        [...leases.values()]
          .filter((lease) => lease.left > 0 && lease.until - now > GIVE_BACK_MARGIN_MS)
          .map((lease) => store.giveBack(lease.key, lease.windows, lease.left).catch(() => {})),
      );
      leases.clear();
      await store.close();
    },
  };
}
