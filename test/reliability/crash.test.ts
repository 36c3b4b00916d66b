// kill -9 during a stream of creates and uploads, one cycle on the embedded default (see
// support/crash-suite.ts; crash-postgres.test.ts: on PostgreSQL, on another worker at the same time;
// npm run test:long runs five, and waits out the claims the kills cut).
import { crashSuite } from "./support/crash-suite.ts";

crashSuite({ cycles: 1, waitForLeases: false, drivers: ["pglite"] });
