// The stdio bridge to a Project Builder server's MCP endpoint, for clients that start their MCP
// servers as processes (desktop coding agents). Each JSON-RPC message read from the input, one per
// line, is POSTed to `<url>/mcp` with the key as its bearer, and the answer written out as one line
// per message (a JSON answer, or each message of an event stream). Every rule — authentication,
// scopes, rate limits, idempotency, audit — is the server's: this is a pipe, not a second server.
// A request the server does not answer (unreachable, refused over HTTP, not JSON) still gets a
// JSON-RPC error with its id, so the client never waits for an answer that will not come.
import { readFileSync } from "node:fs";
import { createParser } from "eventsource-parser";

export interface BridgeOptions {
  /** The server's base URL (its MCP endpoint is `/mcp` there), e.g. `http://localhost:8080`. */
  readonly url: string;
  /** An API key (`svc_live_…`, `svc_test_…`) or an OAuth access token, sent as the bearer. */
  readonly key: string;
  /** The client's messages, one JSON-RPC message per line (default: standard input). */
  readonly input?: AsyncIterable<string | Uint8Array>;
  /** Writes one message to the client (default: a line on standard output, which carries nothing else). */
  readonly write?: (message: string) => void;
  /** Says what went wrong, for whoever reads the client's logs (default: a line on standard error). */
  readonly log?: (message: string) => void;
}

/** This package's version, which its User-Agent carries. */
export const version: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** JSON-RPC error codes the bridge answers with when the server does not. */
const SERVER_ERROR = -32000;
const INTERNAL_ERROR = -32603;

interface Message {
  id?: unknown;
  method?: unknown;
  result?: { protocolVersion?: unknown };
  error?: { message?: unknown };
}

/**
 * Forwards every message of `input` to the server, and resolves once the input has ended and each
 * message has been answered. Throws only for an unusable `url` (a TypeError).
 */
export async function runBridge(options: BridgeOptions): Promise<void> {
  const endpoint = mcpEndpoint(options.url);
  const write = options.write ?? ((message: string) => void process.stdout.write(`${message}\n`));
  const log = options.log ?? ((message: string) => void process.stderr.write(`project-builder-mcp: ${message}\n`));
  // Sent with every message once `initialize` has set them, as the streamable HTTP transport asks.
  let protocolVersion: string | undefined;
  let sessionId: string | undefined;

  const forward = async (line: string): Promise<void> => {
    const message = parsed(line);
    const id = message !== undefined && "id" in message && "method" in message ? message.id : undefined;
    /** An error answer to the message when it is a request (a notification is answered by nothing). */
    const fail = (code: number, text: string) => {
      if (id !== undefined) write(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message: text } }));
    };
    const answered = (answer: Message) => {
      if (message?.method === "initialize" && typeof answer.result?.protocolVersion === "string")
        protocolVersion = answer.result.protocolVersion;
      write(JSON.stringify(answer));
    };

    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${options.key}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "User-Agent": `project-builder-mcp/${version}`,
          ...(protocolVersion ? { "MCP-Protocol-Version": protocolVersion } : {}),
          ...(sessionId ? { "Mcp-Session-Id": sessionId } : {}),
        },
        body: line,
      });
    } catch (error) {
      const failure = error as Error & { cause?: Error };
      log(`could not reach ${endpoint.href}: ${failure.cause ? String(failure.cause) : failure.message}`);
      return fail(SERVER_ERROR, `The server could not be reached at ${endpoint.href}.`);
    }
    sessionId = response.headers.get("mcp-session-id") ?? sessionId;

    try {
      const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
      if (response.ok && type === "text/event-stream" && response.body) {
        let any = false;
        const parser = createParser({
          onEvent: (event) => {
            const sent = parsed(event.data);
            if (sent === undefined) return log("the server sent an event that is not a JSON-RPC message");
            any = true;
            answered(sent);
          },
        });
        for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) parser.feed(chunk);
        if (!any) fail(INTERNAL_ERROR, "The server's event stream ended without an answer.");
        return;
      }
      const text = await response.text();
      if (text === "") {
        if (!response.ok) {
          log(`the server answered ${response.status}`);
          fail(SERVER_ERROR, `The server answered ${response.status}.`);
        }
        return;
      }
      const body = parsed(text);
      if (body === undefined) {
        log(`the server answered ${response.status} with something other than a JSON-RPC message`);
        return fail(INTERNAL_ERROR, `The server answered ${response.status} without JSON.`);
      }
      if (!response.ok) {
        log(`${response.status}: ${typeof body.error?.message === "string" ? body.error.message : text.slice(0, 200)}`);
        // A refusal of the HTTP request names no id (the message was not read): it answers the one sent.
        if (id !== undefined) answered({ ...body, id });
        return;
      }
      answered(body);
    } catch (error) {
      log(`could not read the server's answer: ${(error as Error).message}`);
      fail(INTERNAL_ERROR, "The server's answer could not be read.");
    }
  };

  const pending = new Set<Promise<void>>();
  for await (const line of lines(options.input ?? process.stdin)) {
    if (line.trim() === "") continue;
    const sent = forward(line).finally(() => pending.delete(sent));
    pending.add(sent);
  }
  await Promise.all(pending);
}

/** The MCP endpoint of the server at `url`; a TypeError naming `url` unless it is an http(s) URL. */
export function mcpEndpoint(url: string): URL {
  let base: URL | undefined;
  try {
    base = new URL(url);
  } catch {
    // Refused below, as any other URL that is not http(s).
  }
  if (base?.protocol !== "http:" && base?.protocol !== "https:")
    throw new TypeError(`${JSON.stringify(url)} is not an http:// or https:// URL`);
  return new URL("/mcp", base);
}

/** The input's lines, without their line ends; a last line without one included. */
async function* lines(input: AsyncIterable<string | Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of input) {
    // Searched from the chunk's start only: a long message (an upload) arrives in many chunks.
    let from = buffered.length;
    buffered += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    for (let end = buffered.indexOf("\n", from); end >= 0; end = buffered.indexOf("\n", from)) {
      yield buffered.slice(0, end).replace(/\r$/, "");
      buffered = buffered.slice(end + 1);
      from = 0;
    }
  }
  buffered += decoder.decode();
  if (buffered.trim() !== "") yield buffered.replace(/\r$/, "");
}

/** The text as a JSON object, or undefined. */
function parsed(text: string): Message | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
