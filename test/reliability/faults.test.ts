// PostgreSQL and Redis cut during traffic and a webhook receiver down, one round (see
// support/faults-suite.ts; npm run test:long runs three, with longer outages).
import { faultsSuite } from "./support/faults-suite.ts";

faultsSuite({ rounds: 1, outageMs: 1500 });
