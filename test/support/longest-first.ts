// Vitest's sequencer, with a better guess for files it has no timing for (a fresh clone, as in CI).
// As vitest orders files: each project (tier) in turn, so that a tier's workers run its files one
// after another, loading its modules once; within a tier, failed files first, then the longest, so
// that the last files to start are short ones and no worker sits idle while another finishes a long
// file. A file's time is vitest's record of an earlier run, or else file-times.json, each file's
// time in a whole run on two cores (`RECORD_FILE_TIMES=1 npm test` writes it anew,
// test/support/slowest-files.ts); a file in neither runs first, as vitest runs new files first.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const fileTimesPath = join(import.meta.dirname, "file-times.json");

export default class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const times = readFileTimes();
    const known = (spec: TestSpecification) => this.ctx.cache.getTestSpecificationResult(spec);
    const time = (spec: TestSpecification) =>
      known(spec)?.duration ?? (times[this.relative(spec)] ?? Number.POSITIVE_INFINITY) * 1000;
    const failed = (spec: TestSpecification) => (known(spec)?.failed ? 0 : 1);
    return Promise.resolve(
      [...files].sort(
        (a, b) =>
          a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
          a.project.name.localeCompare(b.project.name) ||
          failed(a) - failed(b) ||
          time(b) - time(a),
      ),
    );
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
