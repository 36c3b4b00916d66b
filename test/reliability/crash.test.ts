// kill -9 during a stream of creates and uploads, one cycle per driver (see support/crash-suite.ts;
// npm run test:long runs five, and waits out the claims the kills cut).
import { crashSuite } from "./support/crash-suite.ts";

crashSuite({ cycles: 1, waitForLeases: false });
