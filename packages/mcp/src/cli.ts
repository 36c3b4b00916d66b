#!/usr/bin/env node
// project-builder-mcp [--url <server>]: the Project Builder API's MCP tools over stdio (see
// index.ts), with the key of PROJECT_BUILDER_API_KEY, until the client closes standard input.
// Standard output carries only the protocol; everything said to a person goes to standard error.
import { parseArgs } from "node:util";
import { mcpEndpoint, runBridge, version } from "./index.ts";

const KEY_VARIABLE = "PROJECT_BUILDER_API_KEY";

const usage = `Usage: project-builder-mcp [--url <server>]

The Project Builder API's MCP tools over stdio (${version}), for coding agents that start
their MCP servers as processes: each message goes to the server's /mcp.
  --url <server>   the server's base URL (default http://localhost:8080)
Environment:
  ${KEY_VARIABLE}   an API key (svc_live_… or svc_test_…) or an OAuth access token`;

/** Says `message` on one line and exits with `code`: a person reads it in the client's log, no stack trace. */
function exit(code: number, message: string): never {
  process.stderr.write(`project-builder-mcp: ${message}\n`);
  process.exit(code);
}

let values: { url?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { url: { type: "string" }, help: { type: "boolean", short: "h" } } }));
} catch (error) {
  exit(2, `${(error as Error).message}\n\n${usage}`);
}
if (values.help) {
  process.stderr.write(`${usage}\n`);
  process.exit(0);
}
const key = process.env[KEY_VARIABLE]?.trim();
if (!key) exit(1, `set ${KEY_VARIABLE} to an API key (svc_live_… or svc_test_…) or an OAuth access token.`);

const url = values.url ?? "http://localhost:8080";
try {
  mcpEndpoint(url);
} catch (error) {
  exit(2, `--url: ${(error as Error).message}`);
}

try {
  await runBridge({ url, key });
} catch (error) {
  exit(1, (error as Error).message);
}
