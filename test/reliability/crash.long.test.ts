// kill -9 during a stream of creates and uploads, five cycles per driver, then the claims the kills
// cut waited out and sent again (see support/crash-suite.ts).
import { crashSuite } from "./support/crash-suite.ts";

crashSuite({ cycles: 5, waitForLeases: true });
