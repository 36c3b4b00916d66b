// Hostile input, the long run (npm run test:long) on PostgreSQL: ten times the cases of
// hostile-postgres.test.ts (hostile.long.test.ts: on the embedded default).
import { hostileSuite } from "./support/hostile-suite.ts";

hostileSuite({
  invalidCases: { pglite: 20_000, postgres: 10_000 },
  oddTextCases: 500,
  mcpCases: { pglite: 6000, postgres: 3000 },
  file: "test/reliability/hostile-postgres.long.test.ts",
  drivers: ["postgres"],
});
