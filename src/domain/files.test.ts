import { describe, expect, it } from "vitest";
import { document } from "../../test/support/contract.ts";
import { FILE_PATH } from "./files.ts";

/** The rule in words: segments of letters, digits, `.`, `_` and `-`, none empty, `.` or `..`. */
function isProjectPath(path: string): boolean {
  return path.split("/").every((segment) => /^[A-Za-z0-9._-]+$/.test(segment) && segment !== "." && segment !== "..");
}

/** Every string over `alphabet` of up to `length` characters, shortest first. */
function* strings(alphabet: string, length: number): Generator<string> {
  let current = [""];
  for (let n = 0; n <= length; n++) {
    yield* current;
    current = current.flatMap((shorter) => [...alphabet].map((c) => shorter + c));
  }
}

describe("FILE_PATH", () => {
  it("is the contract's ProjectFilePath pattern", () => {
    expect(FILE_PATH.source).toBe(
      new RegExp((document.components!.schemas!.ProjectFilePath as { pattern: string }).pattern).source,
    );
  });

  it("accepts exactly the paths the rule allows, every string of up to 7 characters over a . / _ ~", () => {
    let checked = 0;
    for (const path of strings("a./_~", 7)) {
      expect(FILE_PATH.test(path), JSON.stringify(path)).toBe(isProjectPath(path));
      checked++;
    }
    expect(checked).toBe(97_656);
  });
});
