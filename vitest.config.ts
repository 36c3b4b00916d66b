import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import LongestFirst from "./test/support/longest-first.ts";

/** The expensive reliability cases (many crash cycles, tens of thousands of inputs): `npm run test:long`. */
export const longTests = "test/reliability/**/*.long.test.ts";

/**
 * Test files run in parallel, one worker more than there are cores: a file spends part of its time
 * waiting (on child processes, timers, PostgreSQL), which the extra worker uses; more than one extra
 * only shares the same cores. TEST_WORKERS overrides it (1 to see a file alone). Each worker is apart from the others: its own databases (test/support/database.ts),
 * servers on ports the kernel picks, its own temp directories and Redis keys (named by random ids).
 */
export const testWorkers = Number(process.env.TEST_WORKERS) || availableParallelism() + 1;

/**
 * The tiers, each a vitest project (`npx vitest run --project api`): modules on their own, the
 * server over HTTP in this process, real processes (the server, pbs, crashes, replicas, faults),
 * and the tools around the contract (its documents, the mock, the packages, the docs).
 */
const processTests = [
  "cli",
  "cli-listen",
  "crash-recovery",
  "deployment",
  "quickstart",
  "replicas",
  "server-process",
  "settings-walkthrough",
  "webhook-crash-recovery",
].map((name) => `test/${name}.test.ts`);
const toolingTests = [
  "check-breaking",
  "contract",
  "docs",
  "examples",
  "imports",
  "migration-rules",
  "mock",
  "packages",
  "prism-proxy",
  "release",
  "spectral",
].map((name) => `test/${name}.test.ts`);
const tiers: Record<string, { include: string[]; exclude?: string[] }> = {
  unit: {
    include: ["src/**/*.test.ts", "packages/*/src/**/*.test.ts", "scripts/**/*.test.ts", "test/support/*.test.ts"],
  },
  api: { include: ["test/*.test.ts"], exclude: [...processTests, ...toolingTests] },
  process: { include: [...processTests, "test/reliability/*.test.ts"] },
  tooling: { include: toolingTests },
};

export default defineConfig({
  test: {
    projects: Object.entries(tiers).map(([name, { include, exclude = [] }]) => ({
      extends: true,
      test: { name, include, exclude: ["**/node_modules/**", longTests, ...exclude] },
    })),
    maxWorkers: testWorkers,
    // A worker runs file after file in one process, keeping the modules it has loaded, the
    // contract's compiled validators and its embedded databases (emptied when a file closes them,
    // test/support/database.ts), which it would otherwise load and compile again for each file.
    // Each file opens its own servers and closes them when it ends.
    isolate: false,
    // Deadlines, not measurements: generous, because with files in parallel (and, on a shared CI
    // machine, other work beside them) a case that starts servers and child processes can take
    // several times its time on an idle machine. What a case waits for, it polls for.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll's own default (1 s) is a deadline too short for a loaded machine: an esbuild
    // service or a browser's page can take longer than that to go or to change.
    expect: { poll: { timeout: 15_000 } },
    setupFiles: ["test/support/setup.ts"],
    globalSetup: [
      // Gathers what the reliability suites tried and checked, and prints it as one table at the end.
      "test/reliability/summary-setup.ts",
      // The migrated PostgreSQL database every test database is cloned from (with TEST_DATABASE_URL).
      "test/support/postgres-template-setup.ts",
    ],
    // Longest files first, also in a fresh clone (where vitest has no timings yet).
    sequence: { sequencer: LongestFirst },
    // The ten slowest files, after vitest's own report.
    reporters: ["default", "./test/support/slowest-files.ts"],
  },
});
