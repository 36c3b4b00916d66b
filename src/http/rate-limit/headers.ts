// The rate-limit headers of an answer (IETF RateLimit fields and GitHub's X-RateLimit-*).
import type { RateLimitResult } from "./policy.ts";

/**
 * Response headers for a rate-limit result:
 * - IETF draft-ietf-httpapi-ratelimit-headers (structured-field lists):
 *   `RateLimit-Policy: "default";q=60;w=60, "burst";q=10;w=1`
 *   `RateLimit: "default";r=59;t=60, "burst";r=9;t=1`
 * - GitHub-style `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Used` and
 *   `X-RateLimit-Reset` (Unix epoch seconds), all of the first (long) window: the minute;
 * - `Retry-After` (whole seconds ≥ 1) when refused.
 */
export function rateLimitHeaders(
  result: Pick<RateLimitResult, "allowed" | "retryAfterSeconds" | "windows">,
): Record<string, string> {
  const policy = result.windows.map((w) => `"${w.policy}";q=${w.limit};w=${Math.ceil(w.windowSeconds)}`).join(", ");
  const current = result.windows.map((w) => `"${w.policy}";r=${w.remaining};t=${w.resetSeconds}`).join(", ");
  const minute = result.windows[0]!;
  const headers: Record<string, string> = {
    "RateLimit-Policy": policy,
    RateLimit: current,
    "X-RateLimit-Limit": String(minute.limit),
    "X-RateLimit-Remaining": String(minute.remaining),
    "X-RateLimit-Used": String(minute.used),
    "X-RateLimit-Reset": String(minute.resetAt),
  };
  if (!result.allowed) headers["Retry-After"] = String(Math.max(1, result.retryAfterSeconds ?? 1));
  return headers;
}
