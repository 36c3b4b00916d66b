// Hostile input, the long run (npm run test:long) on the embedded default: ten times the cases of
// hostile.test.ts (hostile-postgres.long.test.ts: on PostgreSQL, on another worker at the same time).
import { hostileSuite } from "./support/hostile-suite.ts";

hostileSuite({
  invalidCases: { pglite: 20_000, postgres: 10_000 },
  oddTextCases: 500,
  mcpCases: { pglite: 6000, postgres: 3000 },
  file: "test/reliability/hostile.long.test.ts",
  drivers: ["pglite"],
});
