// Slow and abusive clients, a thousand idle connections among them (see
// support/slow-clients-suite.ts; npm run test:long holds eight thousand).
import { slowClientsSuite } from "./support/slow-clients-suite.ts";

slowClientsSuite({ slowLoris: 50, nonReaders: 8, idle: 1000, samples: 300 });
