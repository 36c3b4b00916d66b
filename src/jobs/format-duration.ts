/** A limit's duration for people: `10 minutes`, `90 seconds`, `1500 ms`. */
export function formatDuration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}`;
  if (ms % 1000 === 0) return `${ms / 1000} seconds`;
  return `${ms} ms`;
}
