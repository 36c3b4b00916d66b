// A vitest reporter (beside the default one) that ends every run with the ten slowest test files,
// so that a file that grows slow is seen the day it does rather than when the suite has doubled.
// A file's time is what its worker spent on it: setting up, importing, and its tests and hooks.
import type { Reporter, TestModule } from "vitest/node";

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

function workerTime(module: TestModule): number {
  const d = module.diagnostic();
  return d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
