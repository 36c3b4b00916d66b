// Vitest's sequencer, with a better guess for files it has no timing for (a fresh clone, as in CI):
// longest first, so that the last files to start are short ones and no worker sits idle while
// another finishes a long file. Vitest guesses a file's time from its size, which puts the
// reliability suites last: each is a few lines declaring a suite written in a support module
// (test/reliability/support/*-suite.ts), and they are among the slowest files. Here a file's size
// counts the `*-suite.ts` modules it imports. Files with a recorded time keep vitest's order
// (failed first, then longest first).
import { readFile, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const unknown = sorted.filter((spec) => !this.ctx.cache.getTestSpecificationResult(spec));
    if (unknown.length === 0) return sorted;
    const sizes = new Map(
      await Promise.all(unknown.map(async (spec) => [spec, await sizeWithSuites(spec.moduleId)] as const)),
    );
    // Vitest runs files without a recorded time first; among them, the largest (as counted here) first.
    const known = sorted.filter((spec) => !sizes.has(spec));
    return [...unknown.sort((a, b) => sizes.get(b)! - sizes.get(a)!), ...known];
  }
}

async function sizeWithSuites(file: string): Promise<number> {
  const size = async (path: string) => (await stat(path).catch(() => undefined))?.size ?? 0;
  const source = await readFile(file, "utf8").catch(() => "");
  const suites = [...source.matchAll(/from\s+["'](\.[^"']*-suite\.ts)["']/g)].map((match) =>
    resolve(dirname(file), match[1]!),
  );
  const sizes = await Promise.all([file, ...suites].map(size));
  return sizes.reduce((sum, each) => sum + each, 0);
}
