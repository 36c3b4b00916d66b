// kill -9 during a stream of creates and uploads, one cycle on PostgreSQL (see support/crash-suite.ts;
// crash.test.ts: on the embedded default).
import { crashSuite } from "./support/crash-suite.ts";

crashSuite({ cycles: 1, waitForLeases: false, drivers: ["postgres"] });
