import { defineConfig } from "vitest/config";

/** The expensive reliability cases (many crash cycles, tens of thousands of inputs): `npm run test:long`. */
export const longTests = "test/reliability/**/*.long.test.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts", "packages/*/src/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: ["**/node_modules/**", longTests],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["test/support/setup.ts"],
    // Gathers what the reliability suites tried and checked, and prints it as one table at the end.
    globalSetup: ["test/reliability/summary-setup.ts"],
  },
});
