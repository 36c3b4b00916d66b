// Slow and abusive clients, the long run: eight thousand idle connections (MAX_CONNECTIONS is ten).
import { slowClientsSuite } from "./support/slow-clients-suite.ts";

slowClientsSuite({ slowLoris: 200, nonReaders: 32, idle: 8000, samples: 1000 });
