// npm run mock: a Prism mock server on the canonical contract (generated/openapi.yaml).
//
//   npm run mock                       # http://127.0.0.1:4010
//   PORT=5000 HOST=0.0.0.0 npm run mock
//   npm run mock -- --dynamic          # extra arguments go to `prism mock`
//
// It runs with --errors: a request that breaks the contract (missing
// Authorization header, unknown field, wrong type, missing required
// parameter...) is refused with an error response instead of answered.
//
// How a frontend developer chooses what the mock answers:
//   - Every request needs `Authorization: Bearer <anything>`, as the real API does
//     (e.g. `Authorization: Bearer svc_test_123`); without it the mock answers 401.
//   - By default an operation answers its first success response with its first example.
//   - `Prefer: code=404` answers the operation's 404 response (any status the
//     operation declares: 400, 401, 409, 429, 500...).
//   - `Prefer: example=<title>` answers the example with that title (the key
//     under `examples` in the document, i.e. the TypeSpec example title, spaces
//     and all: `Prefer: example=Pro plan`); combine both:
//     `Prefer: code=404, example=<title>`.
//   - `Prefer: dynamic=true` generates a random body valid against the schema.
//   - Where headers are awkward (a browser link), the same works as query
//     parameters: `?__code=404&__example=<title>`.
//   curl -H 'Authorization: Bearer svc_test_123' -H 'Prefer: code=404' \
//        http://127.0.0.1:4010/v1/projects/prj_8kF2mQ9xLp3vR7tZ

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const document = join(root, "generated", "openapi.yaml");
const prismCli = join(
  dirname(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json")),
  "dist",
  "index.js",
);

if (!existsSync(document)) {
  console.error("mock: generated/openapi.yaml is missing. Run `npm run build` first.");
  process.exit(1);
}

const extra = process.argv.slice(2);
// Prism turns a repeated option into an array, so only add our host/port when
// the caller did not pass their own.
const has = (...names: string[]): boolean =>
  extra.some((arg) => names.some((name) => arg === name || arg.startsWith(`${name}=`)));
const args = [prismCli, "mock", document, "--errors"];
if (!has("--port", "-p")) args.push("--port", process.env.PORT || "4010");
if (!has("--host", "-h")) args.push("--host", process.env.HOST || "127.0.0.1");
args.push(...extra);

const prism = spawn(process.execPath, args, { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => prism.kill(signal));
}
prism.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
