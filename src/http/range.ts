// Conditional and partial GETs (RFC 9110 §13, §14): `If-None-Match`, `If-Range` and a single
// `Range` of bytes, for content identified by a strong ETag. No I/O: the download handler asks
// what to answer, then reads only the bytes it needs.

import type { ByteRange } from "../domain/files.ts";

export type { ByteRange };

/** What a `Range` header asks of content of a known size. */
export type RangeRequest =
  /** No usable range: send the whole content (absent, malformed, another unit, several ranges…). */
  | { kind: "whole" }
  /** One satisfiable range, clamped to the content. */
  | { kind: "partial"; range: ByteRange }
  /** A single range of which no byte lies within the content: 416. */
  | { kind: "unsatisfiable" };

const WHOLE = { kind: "whole" } as const;

/**
 * Reads a `Range` header for content of `size` bytes. Only one `bytes` range is honoured:
 * `bytes=<first>-<last>`, `bytes=<first>-` or `bytes=-<suffix length>`, the unit case-insensitive,
 * whitespace allowed around the range. A last position past the end stops at the end, a suffix
 * longer than the content is all of it. A value that breaks the grammar is ignored (RFC 9110
 * §14.2), and so is a list of several ranges (answered whole, never as multipart/byteranges). An
 * empty content has no expressible range: a suffix range of it is answered whole.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return WHOLE;
  const match = /^\s*bytes\s*=(.*)$/i.exec(header);
  if (!match) return WHOLE;
  // A list (RFC 9110 §5.6.1): empty elements are allowed and ignored.
  const specs = match[1]!
    .split(",")
    .map((spec) => spec.trim())
    .filter((spec) => spec !== "");
  if (specs.length !== 1) return WHOLE;
  const spec = /^(\d*)-(\d*)$/.exec(specs[0]!);
  if (!spec) return WHOLE;
  const [, firstDigits = "", lastDigits = ""] = spec;
  // BigInt: positions have no length limit in the grammar, and must compare exactly.
  const end = BigInt(size);
  if (firstDigits === "") {
    if (lastDigits === "") return WHOLE;
    const suffix = BigInt(lastDigits);
    if (suffix === 0n) return { kind: "unsatisfiable" };
    if (size === 0) return WHOLE;
    const first = suffix >= end ? 0n : end - suffix;
    return { kind: "partial", range: { first: Number(first), last: size - 1 } };
  }
  const first = BigInt(firstDigits);
  const last = lastDigits === "" ? undefined : BigInt(lastDigits);
  if (last !== undefined && last < first) return WHOLE;
  if (first >= end) return { kind: "unsatisfiable" };
  const clamped = last === undefined || last >= end ? end - 1n : last;
  return { kind: "partial", range: { first: Number(first), last: Number(clamped) } };
}

/** One entity tag of a header: its opaque value in quotes, and whether it is weak (`W/`). */
interface EntityTag {
  weak: boolean;
  opaque: string;
}

/**
 * The entity tags of an `If-None-Match` or `If-Range` value, or `"*"`. Lenient where clients are
 * sloppy: a tag without quotes is taken as if quoted. Anything unreadable is skipped.
 */
export function parseEntityTags(header: string): EntityTag[] | "*" {
  if (header.trim() === "*") return "*";
  const tags: EntityTag[] = [];
  let i = 0;
  while (i < header.length) {
    while (i < header.length && /[\s,]/.test(header[i]!)) i++;
    if (i >= header.length) break;
    let weak = false;
    if (header.startsWith("W/", i)) {
      weak = true;
      i += 2;
    }
    if (header[i] === '"') {
      const close = header.indexOf('"', i + 1);
      if (close === -1) break; // an unterminated tag: nothing more to read
      tags.push({ weak, opaque: header.slice(i, close + 1) });
      i = close + 1;
    } else {
      let end = i;
      while (end < header.length && !/[\s,]/.test(header[end]!)) end++;
      tags.push({ weak, opaque: `"${header.slice(i, end)}"` });
      i = end;
    }
  }
  return tags;
}

/** The opaque part of an ETag we send (`"<hex>"` or `W/"<hex>"`). */
const opaqueOf = (etag: string) => (etag.startsWith("W/") ? etag.slice(2) : etag);

/**
 * Whether `If-None-Match` matches the current ETag, so the answer is `304 Not Modified`: `*`
 * (the content exists), or any listed tag equal by the weak comparison (RFC 9110 §8.8.3.2: the
 * opaque values are equal, whether either is weak or not).
 */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  const tags = parseEntityTags(header);
  if (tags === "*") return true;
  return tags.some((tag) => tag.opaque === opaqueOf(etag));
}

/**
 * Whether `If-Range` lets `Range` apply: only a single strong tag equal to the current ETag by the
 * strong comparison (RFC 9110 §13.1.5). A weak tag, another tag or an HTTP-date (the download sends
 * no `Last-Modified` to compare it with) means the content may have changed: answer it whole.
 */
export function ifRangeMatches(header: string, etag: string): boolean {
  if (etag.startsWith("W/")) return false;
  const trimmed = header.trim();
  return trimmed.startsWith('"') && trimmed === etag;
}

/** What to answer to a GET of content with `etag` and `size`, given its conditional headers. */
export type Answer = { kind: "not_modified" } | RangeRequest;

/**
 * RFC 9110 §13.2.2's order for a GET: `If-None-Match` first (304), then `If-Range`, which only
 * decides whether `Range` applies, then `Range`.
 */
export function evaluateConditions(
  headers: { range?: string; ifNoneMatch?: string; ifRange?: string },
  content: { etag: string; size: number },
): Answer {
  if (headers.ifNoneMatch !== undefined && ifNoneMatchMatches(headers.ifNoneMatch, content.etag))
    return { kind: "not_modified" };
  if (headers.range === undefined) return WHOLE;
  if (headers.ifRange !== undefined && !ifRangeMatches(headers.ifRange, content.etag)) return WHOLE;
  return parseRange(headers.range, content.size);
}

/** The `Content-Range` of a partial answer: `bytes <first>-<last>/<size>`. */
export const contentRange = (range: ByteRange, size: number) => `bytes ${range.first}-${range.last}/${size}`;

/** The `Content-Range` of a `416`: `bytes`, an asterisk, then `/<size>`. */
export const unsatisfiedContentRange = (size: number) => `bytes */${size}`;
