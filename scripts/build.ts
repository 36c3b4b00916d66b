// `npm run build`: spec/ → generated/ → the packages (packages/*) → docs/configuration.md (from
// src/config.ts) → lint → type-check. Fails on the first step that fails.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { vendoredRedoc } from "../src/http/front-door.ts";
import { configurationDoc, renderConfigurationDoc } from "./configuration-doc.ts";
import { redocBundle } from "./docs.ts";
import { generate, root } from "./generate.ts";
import { buildPackages, idempotentRoutesFile, renderIdempotentRoutes } from "./packages.ts";

/** Runs one step; its own output says what failed, so a failure only sets the exit code. */
function run(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { cwd: root, stdio: "inherit" });
  } catch {
    process.exit(1);
  }
}

generate(join(root, "generated"));
console.log("generated/: openapi.yaml, openapi.3.1.yaml, schema.d.ts, handlers.ts");
writeFileSync(idempotentRoutesFile, renderIdempotentRoutes(readFileSync(join(root, "generated/openapi.yaml"), "utf8")));
buildPackages();
console.log("packages/: contract, client, mock, mcp");
writeFileSync(configurationDoc, renderConfigurationDoc());
console.log("docs/: configuration.md, from src/config.ts");
writeFileSync(vendoredRedoc, redocBundle());
console.log("src/http/vendor/: redoc.standalone.js, from the redoc package (GET /docs)");
run(process.execPath, [join(root, "scripts/lint.ts"), "--documents"]);
run(join(root, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"]);
console.log("build: ok");
