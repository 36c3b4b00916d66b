// `npm run test:long`: only the expensive reliability cases, with the setup of `npm test`.
import { defineConfig } from "vitest/config";
import base, { longTests } from "./vitest.config.ts";

export default defineConfig({
  // A fresh worker per file: a handful of files, each minutes long, gain nothing from sharing one.
  test: {
    ...base.test,
    projects: undefined,
    include: [longTests],
    exclude: ["**/node_modules/**"],
    testTimeout: 600_000,
    isolate: true,
  },
});
