// Hostile input, the long run (npm run test:long): ten times the cases of hostile.test.ts.
import { hostileSuite } from "./support/hostile-suite.ts";

hostileSuite({ invalidCases: { pglite: 20_000, postgres: 10_000 }, oddTextCases: 500, mcpCases: { pglite: 6000, postgres: 3000 }, file: "test/reliability/hostile.long.test.ts" });
