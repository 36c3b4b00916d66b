// A vitest reporter (beside the default one) that ends every run with the ten slowest test files,
// so that a file that grows slow is seen the day it does rather than when the suite has doubled.
// A file's time is what its worker spent on it: setting up, importing, and its tests and hooks.
// With RECORD_FILE_TIMES set, a run also writes its files' times into file-times.json, the order the
// sequencer starts files in where vitest has no times of its own (longest-first.ts).
import { existsSync, writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";
import { fileTimesPath, readFileTimes } from "./longest-first.ts";

const SHOWN = 10;

export default class SlowestFiles implements Reporter {
  private started = Date.now();

  onTestRunStart(): void {
    this.started = Date.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules
      .map((module) => ({
        file: module.relativeModuleId,
        ms: workerTime(module),
        tests: [...module.children.allTests()].length,
      }))
      .filter((entry) => entry.ms > 0)
      .sort((a, b) => b.ms - a.ms);
    if (timed.length === 0) return;
    if (process.env.RECORD_FILE_TIMES) recordFileTimes(timed);
    const total = timed.reduce((sum, entry) => sum + entry.ms, 0);
    const wall = Date.now() - this.started;
    const width = Math.max(...timed.slice(0, SHOWN).map((entry) => entry.file.length));
    const lines = timed
      .slice(0, SHOWN)
      .map((entry) => `  ${seconds(entry.ms).padStart(7)}  ${entry.file.padEnd(width)}  ${entry.tests} tests`);
    console.log(
      [
        "",
        `Slowest test files (of ${timed.length}; ${seconds(total)} of file time in ${seconds(wall)} of wall time: ${(total / wall).toFixed(1)} files at once on average):`,
        ...lines,
        "",
      ].join("\n"),
    );
  }
}

/** Merges this run's times into file-times.json, dropping files that are gone. */
function recordFileTimes(timed: readonly { file: string; ms: number }[]): void {
  const times: Record<string, number> = { ...readFileTimes() };
  for (const entry of timed) times[entry.file] = Math.round(entry.ms / 100) / 10;
  const kept = Object.keys(times)
    .filter((file) => existsSync(file))
    .sort()
    .map((file) => [file, times[file]]);
  writeFileSync(fileTimesPath, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
}

function workerTime(module: TestModule): number {
  const d = module.diagnostic();
  return d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
