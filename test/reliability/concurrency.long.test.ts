// Concurrency on one resource, the long run: ten times the rounds of concurrency.test.ts.
import { concurrencySuite } from "./support/concurrency-suite.ts";

concurrencySuite({ rounds: 30 });
