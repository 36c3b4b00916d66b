// kill -9 during a stream of creates and uploads, five cycles on the embedded default, then the
// claims the kills cut waited out and sent again (see support/crash-suite.ts; crash-postgres.long.test.ts:
// on PostgreSQL, on another worker at the same time).
import { crashSuite } from "./support/crash-suite.ts";

crashSuite({ cycles: 5, waitForLeases: true, drivers: ["pglite"] });
