// Per-process counters: the default on the embedded (single-process) server, and the insurance of
// the shared stores while they cannot answer.
import type { RateLimitStore, WindowSpec } from "./store.ts";

export function createMemoryStore(): RateLimitStore {
  const counters = new Map<string, { count: number; resetsAt: number }>();
  // Expired counters are dropped now and then, so keys seen once do not stay forever.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [name, counter] of counters) if (counter.resetsAt <= now) counters.delete(name);
  }, 60_000);
  sweep.unref();
  const current = (key: string, windows: readonly WindowSpec[], now: number) =>
    windows.map((window) => {
      const name = `${window.name}:${key}`;
      let counter = counters.get(name);
      if (!counter || counter.resetsAt <= now)
        counters.set(name, (counter = { count: 0, resetsAt: now + window.durationMs }));
      return counter;
    });
  return {
    kind: "memory",
    async take(key, windows, requests) {
      const now = Date.now();
      const counted = current(key, windows, now);
      const granted = Math.max(
        0,
        Math.min(requests, ...counted.map((counter, i) => windows[i]!.limit - counter.count)),
      );
      for (const counter of counted) counter.count += granted;
      return {
        granted,
        windows: counted.map((counter) => ({ count: counter.count, resetInMs: counter.resetsAt - now })),
      };
    },
    async giveBack(key, windows, requests) {
      for (const counter of current(key, windows, Date.now())) counter.count = Math.max(0, counter.count - requests);
    },
    async close() {
      clearInterval(sweep);
    },
  };
}
