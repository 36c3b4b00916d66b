// @project-builder/mock: a mock server of the Project Builder API, for frontend teams. Prism serves
// the contract's document (@project-builder/contract/openapi.yaml): every operation answers its
// documented example (or, `dynamic`, a random body valid against its schema), and every answer
// carries CORS headers, so a page on any origin can call it. In front of Prism a small proxy refuses
// as the server does, in the contract's error shape: a /v1 request without a key 401
// `missing_api_key`, with a malformed one 401 `invalid_api_key`, and a request that breaks the
// contract 400 `invalid_request` naming the field in `param` (Prism's own refusals carry only
// placeholder examples). Error handling written against the mock holds against the server.
//
//   const mock = await startMock({ port: 4010 });   // in a test runner's global setup, say
//   … fetch(`${mock.url}/v1/projects`, { headers: { Authorization: "Bearer svc_test_anything" } }) …
//   await mock.stop();
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
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
  /** Default 4010; 0: any free port (read it from `url`). */
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
export async function startMock(options: MockOptions = {}): Promise<Mock> {
  const port = options.port ?? 4010;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new RangeError(`Not a port: ${port}.`);
  const host = options.host ?? "127.0.0.1";
  // Prism first, so that the mock answers from its first connection.
  const prism = await startPrism(options);
  const front = createServer((request, response) => serve(request, response, prism.url));
  try {
    await new Promise<void>((resolve, reject) => {
      front.once("error", reject);
      front.listen(port, host, () => resolve());
    });
  } catch (error) {
    await prism.stop();
    throw error;
  }
  // A Prism that dies takes the mock with it, so that `exited` means the mock is gone.
  void prism.exited.then(() => {
    front.closeAllConnections();
    front.close();
  });
  const { address, port: bound } = front.address() as AddressInfo;
  const url = `http://${address.includes(":") ? `[${address}]` : address}:${bound}`;
  return {
    url,
    exited: prism.exited,
    async stop() {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
      await prism.stop();
    },
  };
}

interface Prism {
  readonly url: string;
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Prism on a free loopback port, behind the mock's proxy. */
async function startPrism(options: MockOptions): Promise<Prism> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const args = [
    prismCli,
    "mock",
    contractDocument,
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--cors",
    "--errors",
  ];
  if (options.dynamic) args.push("--dynamic");
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };

  return new Promise<Prism>((resolve, reject) => {
    const lines: string[] = [];
    let listening = false;
    const onLine = (line: string) => {
      // eslint-disable-next-line no-control-regex -- Prism's colours
      const text = line.replace(/\x1b\[[0-9;]*m/g, "");
      // Prism's start-up lists its routes at its own, internal address: only what it logs once it
      // listens (the requests it serves, and why it refused one) is the mock's user's business.
      if (listening) options.log?.(text);
      lines.push(text);
      if (lines.length > 20) lines.shift();
      const url = LISTENING.exec(text)?.[1];
      if (url && !listening) {
        listening = true;
        resolve({ url, exited, stop });
      }
    };
    for (const stream of [child.stdout, child.stderr]) {
      let buffered = "";
      stream.setEncoding("utf8").on("data", (chunk: string) => {
        buffered += chunk;
        const complete = buffered.split("\n");
        buffered = complete.pop()!;
        complete.forEach(onLine);
      });
    }
    child.once("error", reject);
    void exited.then((code) => {
      if (!listening) reject(new Error(`The mock did not start (Prism exited with ${code}):\n${lines.join("\n")}`));
    });
  });
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** The server's refusals, in the contract's error shape, with CORS headers as Prism sends them. */
function refuse(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  param: string | null,
): void {
  const requestId = `req_${randomBytes(12).toString("base64url").replace(/[-_]/g, "0")}`;
  const body = JSON.stringify({ error: { code, message, param, request_id: requestId } });
  response.writeHead(status, {
    "Access-Control-Allow-Origin": request.headers.origin ?? "*",
    "Access-Control-Expose-Headers": "*",
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "X-Request-Id": requestId,
  });
  response.end(body);
}

/** Refuses what the server would refuse before an operation; passes the rest to Prism. */
function serve(request: IncomingMessage, response: ServerResponse, prismUrl: string): void {
  const path = request.url ?? "/";
  if (request.method !== "OPTIONS" && path.startsWith("/v1/")) {
    const authorization = request.headers.authorization;
    if (!authorization)
      return refuse(
        request,
        response,
        401,
        "missing_api_key",
        "Send your API key as `Authorization: Bearer <API_KEY>`.",
        "Authorization",
      );
    if (!BEARER.test(authorization))
      return refuse(
        request,
        response,
        401,
        "invalid_api_key",
        "The Authorization header must be `Bearer <API_KEY>`.",
        "Authorization",
      );
  }
  const upstream = httpRequest(
    new URL(path, prismUrl),
    { method: request.method, headers: request.headers },
    (answer) => {
      const violations = answer.headers["sl-violations"];
      if (typeof violations === "string" && (answer.statusCode === 400 || answer.statusCode === 422)) {
        const refusal = requestViolation(violations);
        if (refusal) {
          answer.resume();
          return refuse(request, response, 400, "invalid_request", refusal.message, refusal.param);
        }
      }
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on("error", (error) => {
    if (!response.headersSent)
      refuse(request, response, 502, "internal_error", `The mock's Prism did not answer: ${error.message}`, null);
    else response.destroy();
  });
  request.pipe(upstream);
}

interface Violation {
  readonly location?: string[];
  readonly message?: string;
}

/** The first violation of the request (not of Prism's own answer) as the server words it: a message and the field. */
function requestViolation(header: string): { message: string; param: string | null } | undefined {
  let violations: Violation[];
  try {
    violations = JSON.parse(header) as Violation[];
  } catch {
    return undefined;
  }
  const first = violations.find((violation) => violation.location?.[0] === "request");
  if (!first) return undefined;
  const [, where, ...field] = first.location!;
  const missing = /required property '([^']+)'/.exec(first.message ?? "")?.[1];
  const unknown = /additional properties; found '([^']+)'/i.exec(first.message ?? "")?.[1];
  const segments = [...field, ...(missing ? [missing] : unknown ? [unknown] : [])];
  const param =
    where === "header" && segments[0]
      ? segments[0].replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())
      : segments.length > 0
        ? segments.join(".")
        : null;
  const said = (first.message ?? "breaks the contract").replace(/^Request (body|query parameter|header)s? /i, "");
  return {
    message: param ? `\`${param}\`: ${said}.` : `The request ${said}.`,
    param,
  };
}
