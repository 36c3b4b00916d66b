// @project-builder/mock: a mock server of the Project Builder API, for frontend teams. Prism serves
// the contract's document (@project-builder/contract/openapi.yaml): every operation answers its
// documented example (or, `dynamic`, a random body valid against its schema), a request that breaks
// the contract is refused with the operation's 400 (422 where it declares one), and every answer
// carries CORS headers, so a page on any origin can call it.
//
//   const mock = await startMock({ port: 4010 });   // in a test runner's global setup, say
//   … fetch(`${mock.url}/v1/projects`, { headers: { Authorization: "Bearer svc_test_anything" } }) …
//   await mock.stop();
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The document mocked: the contract package's OpenAPI 3.0 document. */
export const contractDocument: string = fileURLToPath(import.meta.resolve("@project-builder/contract/openapi.yaml"));

/** The version of that contract. */
export const contractVersion: string = (
  JSON.parse(readFileSync(fileURLToPath(import.meta.resolve("@project-builder/contract/package.json")), "utf8")) as {
    version: string;
  }
).version;

const prismCli = fileURLToPath(new URL("dist/index.js", import.meta.resolve("@stoplight/prism-cli/package.json")));

export interface MockOptions {
  /** Default 4010. */
  port?: number;
  /** Default 127.0.0.1; 0.0.0.0 to reach the mock from other machines or containers. */
  host?: string;
  /** Answer random bodies valid against the schemas rather than the documented examples. */
  dynamic?: boolean;
  /** Each line Prism logs (the requests, and why it refused one). Default: none. */
  log?: (line: string) => void;
}

export interface Mock {
  /** Where it listens, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  /** Resolves with Prism's exit code once it has stopped. */
  readonly exited: Promise<number | null>;
  /** Stops Prism; resolves once it has. */
  stop(): Promise<void>;
}

// What Prism prints once it listens, e.g. "[CLI] ▶  start  Prism is listening on http://127.0.0.1:4010".
const LISTENING = /Prism is listening on (\S+)/;

/** Starts the mock; resolves once it listens, rejects (with Prism's last words) when it cannot start. */
export function startMock(options: MockOptions = {}): Promise<Mock> {
  const port = options.port ?? 4010;
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new RangeError(`Not a port: ${port}.`);
  const args = [
    prismCli,
    "mock",
    contractDocument,
    "--host",
    options.host ?? "127.0.0.1",
    "--port",
    String(port),
    "--cors",
    "--errors",
  ];
  if (options.dynamic) args.push("--dynamic");
  const prism = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => prism.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (prism.exitCode === null && prism.signalCode === null) prism.kill("SIGTERM");
    await exited;
  };

  return new Promise<Mock>((resolve, reject) => {
    const lines: string[] = [];
    let listening = false;
    const onLine = (line: string) => {
      // eslint-disable-next-line no-control-regex -- Prism's colours
      const text = line.replace(/\x1b\[[0-9;]*m/g, "");
      options.log?.(text);
      lines.push(text);
      if (lines.length > 20) lines.shift();
      const url = LISTENING.exec(text)?.[1];
      if (url && !listening) {
        listening = true;
        resolve({ url, exited, stop });
      }
    };
    for (const stream of [prism.stdout, prism.stderr]) {
      let buffered = "";
      stream.setEncoding("utf8").on("data", (chunk: string) => {
        buffered += chunk;
        const complete = buffered.split("\n");
        buffered = complete.pop()!;
        complete.forEach(onLine);
      });
    }
    prism.once("error", reject);
    void exited.then((code) => {
      if (!listening) reject(new Error(`The mock did not start (Prism exited with ${code}):\n${lines.join("\n")}`));
    });
  });
}
