// Responses whose status matches one of options.statuses (e.g. "2XX", "429")
// declare every header in options.headers (rate-limit headers, X-Request-Id).
// Header names are compared case-insensitively, as HTTP does.

import { deref, operations, statusMatches } from "./openapi-walk.js";

export default function responseHeaders(root, options) {
  const wanted = (options && options.headers) || [];
  const statuses = ((options && options.statuses) || []).map(String);
  const results = [];

  for (const { operation, path } of operations(root)) {
    const name = operation.operationId || path.slice(1).join(" ");
    for (const [status, raw] of Object.entries(operation.responses || {})) {
      if (!statuses.some((pattern) => statusMatches(status, pattern))) continue;
      const response = deref(root, raw);
      const declared = new Set(Object.keys((response && response.headers) || {}).map((h) => h.toLowerCase()));
      const missing = wanted.filter((header) => !declared.has(header.toLowerCase()));
      if (missing.length > 0) {
        results.push({
          message: `${name}: the ${status} response is missing header(s) ${missing.join(", ")}.`,
          path: [...path, "responses", status],
        });
      }
    }
  }
  return results;
}
