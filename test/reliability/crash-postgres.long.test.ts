// kill -9 during a stream of creates and uploads, five cycles on PostgreSQL, then the claims the kills
// cut waited out and sent again (see support/crash-suite.ts; crash.long.test.ts: on the embedded default).
import { crashSuite } from "./support/crash-suite.ts";

crashSuite({ cycles: 5, waitForLeases: true, drivers: ["postgres"] });
