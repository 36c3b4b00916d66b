// Vitest's sequencer, with a better guess for files it has no timing for (a fresh clone, as in CI):
// longest first, so that the last files to start are short ones and no worker sits idle while
// another finishes a long file. The guess is file-times.json, each file's time in a whole run on two
// cores (`RECORD_FILE_TIMES=1 npm test` writes it anew, test/support/slowest-files.ts); a file not
// in it yet runs first, as vitest runs new files first. Files with a time vitest recorded keep
// vitest's order (failed first, then longest first).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const fileTimesPath = join(import.meta.dirname, "file-times.json");

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const unknown = sorted.filter((spec) => !this.ctx.cache.getTestSpecificationResult(spec));
    if (unknown.length === 0) return sorted;
    const times = readFileTimes();
    const guess = (spec: TestSpecification) => times[this.relative(spec)] ?? Number.POSITIVE_INFINITY;
    const known = sorted.filter((spec) => !unknown.includes(spec));
    return [...unknown.sort((a, b) => guess(b) - guess(a)), ...known];
  }

  private relative(spec: TestSpecification): string {
    return spec.moduleId.slice(this.ctx.config.root.length + 1);
  }
}

/** Seconds per file, by path from the repository's root. */
export function readFileTimes(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(fileTimesPath, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}
