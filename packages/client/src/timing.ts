// Waiting: `Retry-After` read, cancellable sleeps and jittered exponential backoff, for the calls'
// retries (index.ts) and the event stream's reconnections (event-stream.ts).

/** @internal `Retry-After` in seconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/** @internal Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** @internal The wait before retry `retry` (0 first): `initialMs` doubled each time up to `maxMs`, jittered to 50–100 %. */
export function backoffDelay(retry: number, initialMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** retry);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
