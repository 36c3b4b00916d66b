import { describe, expect, it } from "vitest";
import { newId, randomBase62 } from "./ids.ts";

describe("ids", () => {
  it("are the prefix and 24 base62 characters, all different", () => {
    const ids = Array.from({ length: 1000 }, () => newId("prj"));
    for (const id of ids) expect(id).toMatch(/^prj_[0-9A-Za-z]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("draw every base62 character equally often", () => {
    const sample = randomBase62(62 * 2000);
    const counts = new Map<string, number>();
    for (const char of sample) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Chi-square with 61 degrees of freedom: 120 is beyond the 99.99th percentile. A `byte % 62`
    // generator, favouring 8 characters by 1/4, scores several hundred here.
    const expected = sample.length / 62;
    const chiSquare = [...counts.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(120);
  });
});
