import { describe, expect, it } from "vitest";
import { expectLinear, growthRatio } from "./growth.ts";

/** Counts the pairs of equal characters: every character against every one before it. */
function equalPairs(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i++) for (let j = 0; j < i; j++) if (text[i] === text[j]) pairs += 1;
  return pairs;
}

describe("expectLinear", () => {
  it("passes linear work", async () => {
    await expectLinear(
      200_000,
      (n) => "ab".repeat(n),
      (text) => text.split("").filter((c) => c === "a").length,
    );
  });

  it("fails quadratic work, by a wide margin", async () => {
    expect(await growthRatio(500, (n) => "ab".repeat(n), equalPairs)).toBeGreaterThan(40);
    await expect(expectLinear(500, (n) => "ab".repeat(n), equalPairs)).rejects.toThrow(
      /8 times the input multiplied the time by .* in 3 attempts/,
    );
  });
});
