import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { describe, expect, it } from "vitest";
import { diffContents, LEFT_OUT, MAX_PATCH_BYTES, textOf, unifiedDiff, type ContentPair } from "./file-diff.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const lines = (count: number, line: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => `${line(index)}\n`).join("");

/** A small pseudo-random text of a few distinct lines, so that sides share some and differ in others. */
function randomText(next: () => number): string {
  const pieces = ["a\n", "b\n", "c\n", "d\n", "e\n", "f\r\n"];
  let text = "";
  for (let count = Math.floor(next() * 25); count > 0; count--) text += pieces[Math.floor(next() * pieces.length)];
  return next() < 0.3 ? text + "tail" : text;
}

describe("file diff", () => {
  it("writes the patch jsdiff's createTwoFilesPatch writes, with three lines of context, and it applies", () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 3000; round++) {
      const before = randomText(next);
      const after = next() < 0.1 ? before : randomText(next);
      const diff = unifiedDiff("f.txt", before, after, 1000);
      const expected = createTwoFilesPatch("a/f.txt", "b/f.txt", before, after, undefined, undefined, {
        context: 3,
        headerOptions: FILE_HEADERS_ONLY,
      });
      expect(diff.patch, JSON.stringify({ before, after })).toBe(expected);
      expect(applyPatch(before, diff.patch!)).toBe(after);
      const marked = (sign: string) => expected.split("\n").filter((line) => line.startsWith(sign)).length - 1;
      expect([diff.additions, diff.deletions]).toEqual([marked("+"), marked("-")]);
    }
  });

  it("names an added or deleted file's missing side /dev/null, and marks a last line without a newline", () => {
    expect(unifiedDiff("new.txt", null, "one\ntwo\n", 1000)).toEqual({
      binary: false,
      additions: 2,
      deletions: 0,
      patch: "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n",
    });
    expect(unifiedDiff("old.txt", "one\ntwo", null, 1000).patch).toBe(
      "--- a/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n\\ No newline at end of file\n",
    );
    expect(unifiedDiff("empty.txt", null, "", 1000).patch).toBe("--- /dev/null\n+++ b/empty.txt\n");
  });

  it("tells binary content by a NUL or bytes that are not UTF-8, a first chunk cut inside a character included", () => {
    expect(textOf(encode("plain é ✓"))).toBe("plain é ✓");
    expect(textOf(encode("\uFEFFwith a BOM"))).toBe("\uFEFFwith a BOM");
    expect(textOf(encode("a\u0000b"))).toBeUndefined();
    expect(textOf(new Uint8Array([0x66, 0xff, 0x66]))).toBeUndefined();
    const cut = encode("ab✓").subarray(0, 3);
    expect(textOf(cut)).toBeUndefined();
    expect(textOf(cut, false)).toBe("ab");
    const pairs: ContentPair[] = [
      { path: "logo.png", before: new Uint8Array([0x89, 0x50, 0x00]), after: encode("text") },
      { path: "big.txt", before: encode("x".repeat(10)), after: cut, partial: true },
      { path: "big.bin", before: null, after: new Uint8Array([0, 1, 2]), partial: true },
    ];
    expect(diffContents({ pairs, budgetMs: 1000 }).diffs).toEqual([
      { binary: true, additions: 0, deletions: 0, patch: null },
      LEFT_OUT,
      { binary: true, additions: 0, deletions: 0, patch: null },
    ]);
  });

  it("diffs 20,000 changed lines in linear time: lines found on one side only skip Myers", () => {
    const before = lines(20_000, (index) => `line ${index}`);
    const after = lines(20_000, (index) => `LINE ${index}`);
    const started = performance.now();
    const diff = unifiedDiff("big.txt", before, after, 60_000);
    // Myers alone takes minutes here (d = 40,000).
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(diff).toMatchObject({ additions: 20_000, deletions: 20_000 });
    expect(applyPatch(before, diff.patch!)).toBe(after);
  });

  it("leaves a patch out past its time, past MAX_PATCH_BYTES, or once the request's budget is spent", () => {
    // Every line on both sides, in another order: Myers' worst case, stopped by its timeout.
    const shuffled = diffContents({
      pairs: [
        {
          path: "shuffled.txt",
          before: encode(lines(40_000, (index) => `l${index}`)),
          after: encode(lines(40_000, (index) => `l${(index * 7919) % 40_000}`)),
        },
        { path: "late.txt", before: encode("a\n"), after: encode("b\n") },
      ],
      budgetMs: 300,
    });
    expect(shuffled.diffs).toEqual([LEFT_OUT, LEFT_OUT]);
    expect(shuffled.spentMs).toBeGreaterThanOrEqual(300);

    const long = "x".repeat(MAX_PATCH_BYTES / 2);
    expect(unifiedDiff("long.txt", long, `${long}y`, 1000)).toEqual(LEFT_OUT);
  });
});
