#!/usr/bin/env node
// pbs, the admin CLI: see run-pbs.ts. Imported after boot.ts has made module loading fast.
import "../boot.ts";

const { main } = await import("./run-pbs.ts");
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`pbs: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
