// Per-client-address limiting of unauthenticated traffic: requests that fail before any key is
// identified (no Authorization, an unknown, revoked or expired key, an unknown route, a method the
// route lacks) are counted per address; once an address has made `limit` of them in a window, its
// requests are answered `429 ip_rate_limited` before any database work until the window ends.
//
// Decisions:
// - Only failures are counted, and only in this process's memory: an ordinary authenticated
//   request pays one Map lookup, never a store round trip, and a flood of failures costs no Redis
//   or PostgreSQL work either. The limit therefore holds per replica (N replicas let an address
//   make N × limit failures a window), which is what it is for: bounding the database lookups a
//   stream of random keys causes, not metering anyone.
// - While an address is refused, a request with a valid API key still passes: its checksum tells a
//   forged key in memory (key-screen.ts), so a key whose checksum holds is looked up whatever the
//   address's count, and clients sharing an address with a misbehaving one (an office behind NAT,
//   every client when TRUST_PROXY is not set behind a load balancer) keep working. An OAuth access
//   token, which carries no checksum, passes only if this process already knows it (the principal
//   cache, no database work).
// - An IPv6 address counts by its /64 prefix: one host commonly holds a whole /64 and could
//   otherwise use a fresh address for every request.
// - Memory is bounded: at most `maxAddresses` addresses are tracked (the oldest forgotten first),
//   and ended windows are swept every window.
// - Fixed windows of `windowSeconds` from an address's first failure; requests refused with 429 are
//   not counted (a flood refused does not prolong its own refusal).
import { isIP } from "node:net";
import type { WindowState } from "./rate-limit/index.ts";

/** Failed requests per minute and address by default (UNAUTHENTICATED_RATE_LIMIT). */
export const DEFAULT_UNAUTHENTICATED_LIMIT = 60;

export interface AddressLimiterOptions {
  /** Failed requests an address may make per window; 0 turns the limit off. */
  readonly limit: number;
  /** Default 60. */
  readonly windowSeconds?: number;
  /** Addresses tracked at most (default 50,000, a few megabytes). */
  readonly maxAddresses?: number;
  readonly now?: () => number;
}

/** Why an address is refused now, and the figures of its window for the response headers. */
export interface AddressRefusal {
  readonly retryAfterSeconds: number;
  readonly window: WindowState;
}

export interface AddressLimiter {
  /** Undefined while `address` may go on; its refusal once it has used up its window. No I/O. */
  refusal(address: string | null): AddressRefusal | undefined;
  /** Counts a request of `address` that failed before any key was identified. */
  failed(address: string | null): void;
  close(): void;
}

interface Counter {
  failures: number;
  resetsAt: number;
}

export function createAddressLimiter(options: AddressLimiterOptions): AddressLimiter {
  const { limit } = options;
  const windowMs = (options.windowSeconds ?? 60) * 1000;
  const maxAddresses = options.maxAddresses ?? 50_000;
  const now = options.now ?? Date.now;
  const counters = new Map<string, Counter>();
  const sweep = setInterval(() => {
    const at = now();
    for (const [key, counter] of counters) if (counter.resetsAt <= at) counters.delete(key);
  }, windowMs);
  sweep.unref();

  return {
    refusal(address) {
      if (limit === 0 || counters.size === 0) return undefined;
      const counter = counters.get(addressKey(address));
      const at = now();
      if (!counter || counter.failures < limit || counter.resetsAt <= at) return undefined;
      const resetInMs = counter.resetsAt - at;
      const resetSeconds = Math.max(1, Math.ceil(resetInMs / 1000));
      return {
        retryAfterSeconds: resetSeconds,
        window: {
          policy: "address",
          limit,
          windowSeconds: windowMs / 1000,
          remaining: 0,
          used: limit,
          resetSeconds,
          resetAt: Math.ceil(counter.resetsAt / 1000),
          exceeded: true,
        },
      };
    },
    failed(address) {
      if (limit === 0) return;
      const key = addressKey(address);
      const at = now();
      const counter = counters.get(key);
      if (counter && counter.resetsAt > at) {
        counter.failures++;
        return;
      }
      counters.delete(key);
      if (counters.size >= maxAddresses) counters.delete(counters.keys().next().value!);
      counters.set(key, { failures: 1, resetsAt: at + windowMs });
    },
    close() {
      clearInterval(sweep);
      counters.clear();
    },
  };
}

/** What an address is counted under: an IPv4 address itself, an IPv6 address's /64 prefix. */
export function addressKey(address: string | null): string {
  if (address === null) return "unknown";
  if (isIP(address) !== 6) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, "").toLowerCase())
    .join(":")}::/64`;
}
