// Reading a JSON request body: bounded while it streams (413 before the whole body is held), typed
// by its Content-Type (415), parsed (400). Multipart bodies are never read here: their handler
// streams them.
import type { Readable } from "node:stream";
import { mediaTypeOf, readBoundedBody, type WithHeaders } from "../request-body.ts";
import { HttpError } from "./errors.ts";

export const JSON_BODY_LIMIT = 1024 * 1024;

/** Checks the request's Content-Type against the media types the operation accepts. */
export function requireMediaType(request: WithHeaders, accepted: string[], bodyRequired: boolean): void {
  const mediaType = mediaTypeOf(request);
  const hasBody =
    Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined;
  if (!mediaType && !hasBody && !bodyRequired) return;
  if (!accepted.includes(mediaType)) {
    throw new HttpError(
      415,
      "unsupported_media_type",
      `Content-Type must be ${accepted.join(" or ")}${mediaType ? `, not ${mediaType}` : ""}.`,
      "Content-Type",
    );
  }
}

/** Reads and parses a JSON body of at most `limit` bytes from `stream`; undefined when the body is empty. */
export async function readJsonBody(request: WithHeaders, stream: Readable, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const text = await readBodyText(request, stream, limit);
  if (text === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, "invalid_request", `The request body is not valid JSON: ${(error as Error).message}`);
  }
  const unstorable = unstorableString(body);
  if (unstorable !== undefined) {
    throw new HttpError(
      400,
      "invalid_request",
      "The body holds a NUL character (\\u0000) or a lone UTF-16 surrogate, which no text can store; remove it.",
      // Named when the name itself is printable in an error (the contract's param is ≤ 200 characters).
      unstorable && unstorable.length <= 200 && unstorableString(unstorable) === undefined ? unstorable : null,
    );
  }
  return body;
}

/** Reads a body of at most `limit` bytes, sent uncompressed, as UTF-8 text; undefined when it is empty. */
export async function readBodyText(
  request: WithHeaders,
  stream: Readable,
  limit = JSON_BODY_LIMIT,
): Promise<string | undefined> {
  const encoding = request.headers["content-encoding"]?.trim().toLowerCase();
  if (encoding && encoding !== "identity") {
    throw new HttpError(
      415,
      "unsupported_media_type",
      `Content-Encoding ${encoding} is not accepted; send the body uncompressed.`,
      "Content-Encoding",
    );
  }
  const body = await readBoundedBody(
    request,
    stream,
    limit,
    () => new HttpError(413, "payload_too_large", `The request body exceeds ${limit} bytes.`),
  );
  return body.length === 0 ? undefined : body.toString("utf8");
}

/**
 * The dotted path of the first string (value or field name) that PostgreSQL cannot store, "" for
 * the body itself, or undefined when there is none. JSON may escape U+0000 and unpaired surrogates,
 * which are valid in a JavaScript string, but text columns refuse NUL and jsonb refuses both: left
 * in, they reach the database and fail as a 500. Walked with a stack of its own, not recursion: JSON
 * nested a million deep parses, and must not overflow the call stack here.
 */
export function unstorableString(body: unknown): string | undefined {
  const unstorable = (text: string) => text.includes("\0") || !text.isWellFormed();
  const pending: Array<[path: string, value: unknown]> = [["", body]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [path, value] = next;
    if (typeof value === "string") {
      if (unstorable(value)) return path;
    } else if (value !== null && typeof value === "object") {
      const entries = Object.entries(value as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const at = path ? `${path}.${key}` : key;
        if (unstorable(key)) return at;
        pending.push([at, item]);
      }
    }
  }
  return undefined;
}
