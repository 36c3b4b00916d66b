#!/usr/bin/env node
// pbs, the admin CLI: see run-pbs.ts. Imported after boot.ts has made module loading fast.
import "../boot.ts";

await import("./run-pbs.ts");
