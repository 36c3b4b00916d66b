// Hostile input, the share run by npm test on the embedded default (hostile-postgres.test.ts: on
// PostgreSQL, a file of its own so that the two run on two workers at once): 2,000 generated invalid
// requests over every operation of the contract, 600 invalid MCP messages to /mcp, and valid ones
// with odd Unicode, read back (see support/hostile-suite.ts; npm run test:long runs ten times as many).
import { hostileSuite } from "./support/hostile-suite.ts";

hostileSuite({
  invalidCases: { pglite: 2000, postgres: 1000 },
  oddTextCases: 50,
  mcpCases: { pglite: 600, postgres: 300 },
  file: "test/reliability/hostile.test.ts",
  drivers: ["pglite"],
});
