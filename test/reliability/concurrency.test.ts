// Concurrency on one resource, a few rounds per driver (see support/concurrency-suite.ts; npm run
// test:long runs ten times as many).
import { concurrencySuite } from "./support/concurrency-suite.ts";

concurrencySuite({ rounds: 3 });
