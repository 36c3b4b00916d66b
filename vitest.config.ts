import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import LongestFirst from "./test/support/longest-first.ts";

/** The expensive reliability cases (many crash cycles, tens of thousands of inputs): `npm run test:long`. */
export const longTests = "test/reliability/**/*.long.test.ts";

/**
 * Test files run in parallel, one worker per core (vitest's own default leaves one core idle: on
 * two cores, one file at a time). TEST_WORKERS overrides it (e.g. 1 to see a file alone). Each
 * worker is apart from the others: its own databases (test/support/database.ts), its own slice of ports
 * (test/support/net.ts), its own temp directories and Redis keys (named by random ids).
 */
export const testWorkers = Number(process.env.TEST_WORKERS) || availableParallelism();

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts", "packages/*/src/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: ["**/node_modules/**", longTests],
    maxWorkers: testWorkers,
    // A worker runs file after file in one process, keeping the modules it has loaded and the
    // contract's compiled validators: each file in a fresh one spent about a third of its CPU
    // loading the server's modules and compiling them again (README, "Test"). Files keep nothing
    // else between them: each opens its own servers and databases and closes them when it ends.
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
      // Where this run's workers take their ports (test/support/net.ts).
      "test/support/ports-setup.ts",
    ],
    // Longest files first, also in a fresh clone (where vitest has no timings yet).
    sequence: { sequencer: LongestFirst },
    // The ten slowest files, after vitest's own report.
    reporters: ["default", "./test/support/slowest-files.ts"],
  },
});
