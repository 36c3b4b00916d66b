// A shared store insured by per-process memory counting: used while the shared store is not ready,
// for a request it failed, and for a second after each failure. So a Redis or PostgreSQL outage
// fails open, to limits that hold per replica rather than globally, instead of failing requests;
// the counts go back to the shared store as soon as it answers. `onError` hears the first failure
// of each outage.
import { createMemoryStore } from "./memory-store.ts";
import type { RateLimitStore } from "./store.ts";

/** How long an insured store that failed is left alone before a request tries it again. */
const STORE_RETRY_PAUSE_MS = 1000;

export function insured(store: RateLimitStore, ready: () => boolean, onError: (error: Error) => void): RateLimitStore {
  const memory = createMemoryStore();
  let failing = false;
  let retryAt = 0;
  const usable = () => ready() && !(failing && Date.now() < retryAt);
  return {
    kind: store.kind,
    async take(key, windows, requests) {
      if (!usable()) return memory.take(key, windows, requests);
      try {
        const result = await store.take(key, windows, requests);
        failing = false;
        return result;
      } catch (error) {
        if (!failing) onError(error instanceof Error ? error : new Error(String(error)));
        failing = true;
        retryAt = Date.now() + STORE_RETRY_PAUSE_MS;
        return memory.take(key, windows, requests);
      }
    },
    async giveBack(key, windows, requests) {
      if (usable()) await store.giveBack(key, windows, requests).catch(() => {});
    },
    async close() {
      await memory.close();
      await store.close();
    },
  };
}
