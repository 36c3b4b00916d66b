// PostgreSQL and Redis cut during traffic and a webhook receiver down: three rounds of longer outages.
import { faultsSuite } from "./support/faults-suite.ts";

faultsSuite({ rounds: 3, outageMs: 5000 });
