#!/usr/bin/env node
// project-builder-mock [--port N] [--host H] [--dynamic]: the Project Builder API's mock (see
// index.ts), logging each request Prism serves, until Ctrl-C.
import { parseArgs } from "node:util";
import { contractVersion, startMock } from "./index.ts";

const usage = `Usage: project-builder-mock [--port N] [--host H] [--dynamic]

A mock of the Project Builder API ${contractVersion} (Prism, with CORS).
  --port N     port to listen on (default 4010)
  --host H     address to listen on (default 127.0.0.1; 0.0.0.0 for other machines or containers)
  --dynamic    random bodies valid against the schemas instead of the documented examples

Every /v1 request needs "Authorization: Bearer <anything>"; refusals come in the
contract's error shape, as the server's. Choose an answer with
"Prefer: code=404", "Prefer: example=<title>", or ?__code=404&__example=<title>.`;

let values: { port?: string; host?: string; dynamic?: boolean; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      port: { type: "string", short: "p" },
      host: { type: "string" },
      dynamic: { type: "boolean", short: "d" },
      help: { type: "boolean" },
    },
  }));
} catch (error) {
  console.error(`project-builder-mock: ${(error as Error).message}\n\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const port = values.port === undefined ? undefined : Number(values.port);
if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65_536)) {
  console.error(`project-builder-mock: --port takes a port number, not ${JSON.stringify(values.port)}.`);
  process.exit(2);
}

try {
  const mock = await startMock({ port, host: values.host, dynamic: values.dynamic, log: (line) => console.log(line) });
  console.log(`project-builder-mock: the Project Builder API ${contractVersion} mock is listening on ${mock.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void mock.stop());
  process.exitCode = (await mock.exited) ?? 0;
} catch (error) {
  console.error(`project-builder-mock: ${(error as Error).message}`);
  process.exitCode = 1;
}
