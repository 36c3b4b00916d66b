// `pbs mcp`: the MCP server for clients that start their servers as processes (stdio, as desktop
// clients do). Each message read from standard input, one JSON-RPC message per line, is POSTed to a
// running server's /mcp with the key as its bearer, and the answer written to standard output as
// one line. Every rule — authentication, scopes, rate limits, idempotency, audit — stays in the
// server: this is a pipe, not a second implementation. Diagnostics go to standard error (standard
// output carries only the protocol).
import { createInterface } from "node:readline";
import { clientArgs, KEY_REQUIRED, serverClient } from "./server-client.ts";

export const MCP_USAGE = `pbs mcp [--url <server>] [--key <key>]
      Serves the API's MCP tools over stdio for a desktop client, forwarding each message to the
      server's /mcp. --url: where the server is (default PUBLIC_URL, else http://localhost:8080);
      --key: an API key or OAuth access token (default PB_API_KEY).`;

interface Io {
  readonly input: NodeJS.ReadableStream;
  readonly write: (line: string) => void;
  readonly error: (message: string) => void;
}

const stdio: Io = {
  input: process.stdin,
  write: (line) => process.stdout.write(`${line}\n`),
  error: (message) => process.stderr.write(`pbs mcp: ${message}\n`),
};

/** Runs until standard input ends and every message has been answered; the exit status. */
export async function runMcpProxy(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = stdio,
): Promise<number> {
  // Standard output carries only the protocol: the usage, even asked for, goes to standard error.
  const values = clientArgs(argv, {}, MCP_USAGE, { error: io.error, help: io.error });
  if (typeof values === "number") return values;
  const { key, serverUrl: base } = serverClient(values, env);
  if (!key) {
    io.error(KEY_REQUIRED);
    return 2;
  }
  let endpoint: URL;
  try {
    endpoint = new URL("/mcp", base);
  } catch {
    io.error(`--url ${JSON.stringify(base)} is not a URL`);
    return 2;
  }

  let protocolVersion: string | undefined;
  const pending = new Set<Promise<void>>();
  const forward = async (line: string): Promise<void> => {
    const message = parsed(line);
    const isRequest = message !== undefined && "id" in message && "method" in message;
    const id = isRequest ? message.id : null;
    let status: number;
    let text: string;
    try {
      const response = await fetch(endpoint, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${key}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "User-Agent": "pbs-mcp",
          ...(protocolVersion ? { "MCP-Protocol-Version": protocolVersion } : {}),
        },
        body: line,
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      const failure = error as Error & { cause?: Error };
      io.error(`could not reach ${endpoint.href}: ${failure.cause ? String(failure.cause) : failure.message}`);
      if (isRequest)
        io.write(
          JSON.stringify({
            jsonrpc: "2.0",
            id,
            error: { code: -32000, message: `The server could not be reached at ${endpoint.href}.` },
          }),
        );
      return;
    }
    if (status === 202 || text === "") return;
    let answer: { id?: unknown; result?: { protocolVersion?: unknown }; error?: { message?: string } };
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      io.error(`the server answered ${status} with something other than JSON`);
      if (isRequest)
        io.write(
          JSON.stringify({
            jsonrpc: "2.0",
            id,
            error: { code: -32603, message: `The server answered ${status} without JSON.` },
          }),
        );
      return;
    }
    if (message?.method === "initialize" && typeof answer.result?.protocolVersion === "string")
      protocolVersion = answer.result.protocolVersion;
    if (status >= 400) {
      io.error(`${status}: ${answer.error?.message ?? text.slice(0, 200)}`);
      // The refusal of the HTTP request names no id (it was not read); here it answers the request that was sent.
      if (!isRequest) return;
      answer = { ...answer, id };
    }
    io.write(JSON.stringify(answer));
  };

  const lines = createInterface({ input: io.input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    const sent = forward(line).finally(() => pending.delete(sent));
    pending.add(sent);
  }
  await Promise.all(pending);
  return 0;
}

function parsed(line: string): { id?: unknown; method?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
