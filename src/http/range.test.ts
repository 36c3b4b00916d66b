import { describe, expect, it } from "vitest";
import {
  contentRange,
  evaluateConditions,
  ifNoneMatchMatches,
  ifRangeMatches,
  parseEntityTags,
  parseRange,
  unsatisfiedContentRange,
} from "./range.ts";

const partial = (first: number, last: number) => ({ kind: "partial", range: { first, last } });
const whole = { kind: "whole" };
const unsatisfiable = { kind: "unsatisfiable" };

describe("parseRange", () => {
  it("reads the three forms of one byte range", () => {
    expect(parseRange("bytes=0-9", 100)).toEqual(partial(0, 9));
    expect(parseRange("bytes=90-", 100)).toEqual(partial(90, 99));
    expect(parseRange("bytes=-10", 100)).toEqual(partial(90, 99));
    expect(parseRange("bytes=5-5", 100)).toEqual(partial(5, 5));
  });

  it("stops a last position past the end at the end, and takes a long suffix as all of it", () => {
    expect(parseRange("bytes=50-1000", 100)).toEqual(partial(50, 99));
    expect(parseRange("bytes=99-99999999999999999999999", 100)).toEqual(partial(99, 99));
    expect(parseRange("bytes=-1000", 100)).toEqual(partial(0, 99));
  });

  it("accepts the unit in any case, whitespace around the range and empty list elements", () => {
    expect(parseRange("Bytes=0-1", 10)).toEqual(partial(0, 1));
    expect(parseRange(" bytes = 2-3 ", 10)).toEqual(partial(2, 3));
    expect(parseRange("bytes=, 2-3 ,", 10)).toEqual(partial(2, 3));
  });

  it("is unsatisfiable when the range starts at or past the end, or asks for an empty suffix", () => {
    expect(parseRange("bytes=100-", 100)).toEqual(unsatisfiable);
    expect(parseRange("bytes=100-200", 100)).toEqual(unsatisfiable);
    expect(parseRange("bytes=99999999999999999999999-", 100)).toEqual(unsatisfiable);
    expect(parseRange("bytes=-0", 100)).toEqual(unsatisfiable);
    expect(parseRange("bytes=0-0", 0)).toEqual(unsatisfiable);
    expect(parseRange("bytes=0-", 0)).toEqual(unsatisfiable);
  });

  it("ignores what breaks the grammar, another unit, and several ranges", () => {
    for (const header of [
      "",
      "bytes",
      "bytes=",
      "bytes=-",
      "bytes=a-b",
      "bytes=1-2-3",
      "bytes=+1-2",
      "bytes=0x10-",
      "bytes=1.5-2",
      "bytes=9-3", // last before first
      "items=0-9",
      "0-9",
      "bytes 0-9",
      "bytes=0-1,5-6",
      "bytes=0-1, -5",
      "bytes=0-1,200-300", // even if only one of them is satisfiable
    ]) {
      expect(parseRange(header, 100), header).toEqual(whole);
    }
    expect(parseRange(undefined, 100)).toEqual(whole);
  });

  it("answers a suffix range of empty content whole: no range of it can be written", () => {
    expect(parseRange("bytes=-5", 0)).toEqual(whole);
  });
});

describe("entity tags", () => {
  const etag = '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"';

  it("parses lists of strong and weak tags, and *", () => {
    expect(parseEntityTags('"a", W/"b",  "c,d"')).toEqual([
      { weak: false, opaque: '"a"' },
      { weak: true, opaque: '"b"' },
      { weak: false, opaque: '"c,d"' },
    ]);
    expect(parseEntityTags(" * ")).toBe("*");
    expect(parseEntityTags("bare")).toEqual([{ weak: false, opaque: '"bare"' }]);
    expect(parseEntityTags('"a", "unterminated')).toEqual([{ weak: false, opaque: '"a"' }]);
  });

  it("If-None-Match compares weakly, anywhere in the list, and * matches", () => {
    expect(ifNoneMatchMatches(etag, etag)).toBe(true);
    expect(ifNoneMatchMatches(`W/${etag}`, etag)).toBe(true);
    expect(ifNoneMatchMatches(`"other", ${etag}`, etag)).toBe(true);
    expect(ifNoneMatchMatches("*", etag)).toBe(true);
    expect(ifNoneMatchMatches('"other"', etag)).toBe(false);
    expect(ifNoneMatchMatches(etag.slice(0, -2) + '"', etag)).toBe(false);
    expect(ifNoneMatchMatches("", etag)).toBe(false);
  });

  it("If-Range compares strongly and never matches a weak tag or a date", () => {
    expect(ifRangeMatches(etag, etag)).toBe(true);
    expect(ifRangeMatches(` ${etag} `, etag)).toBe(true);
    expect(ifRangeMatches(`W/${etag}`, etag)).toBe(false);
    expect(ifRangeMatches('"other"', etag)).toBe(false);
    expect(ifRangeMatches("Sun, 22 Nov 2026 13:30:00 GMT", etag)).toBe(false);
    expect(ifRangeMatches(etag, `W/${etag}`)).toBe(false);
  });
});

describe("evaluateConditions", () => {
  const content = { etag: '"abc"', size: 100 };

  it("checks If-None-Match before Range", () => {
    expect(evaluateConditions({ ifNoneMatch: '"abc"', range: "bytes=0-9" }, content)).toEqual({ kind: "not_modified" });
    expect(evaluateConditions({ ifNoneMatch: '"old"', range: "bytes=0-9" }, content)).toEqual(partial(0, 9));
    expect(evaluateConditions({ ifNoneMatch: "*", range: "bytes=500-" }, content)).toEqual({ kind: "not_modified" });
  });

  it("applies Range only when If-Range is absent or still the ETag", () => {
    expect(evaluateConditions({ range: "bytes=0-9", ifRange: '"abc"' }, content)).toEqual(partial(0, 9));
    expect(evaluateConditions({ range: "bytes=0-9", ifRange: '"old"' }, content)).toEqual(whole);
    expect(evaluateConditions({ range: "bytes=500-", ifRange: '"old"' }, content)).toEqual(whole);
    expect(evaluateConditions({ ifRange: '"abc"' }, content)).toEqual(whole);
    expect(evaluateConditions({}, content)).toEqual(whole);
    expect(evaluateConditions({ range: "bytes=500-" }, content)).toEqual(unsatisfiable);
  });
});

describe("Content-Range", () => {
  it("writes a range and an unsatisfied range", () => {
    expect(contentRange({ first: 0, last: 9 }, 100)).toBe("bytes 0-9/100");
    expect(unsatisfiedContentRange(100)).toBe("bytes */100");
  });
});
