// A local stand-in for an OpenAI-compatible chat-completions API, so tests can run the model agent
// (and the whole server) without a network or a real model. A script decides every answer from
// the request: tool calls, a final text, an HTTP error, a slow answer, a dropped connection.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRequest {
  /** 0 for the first request the fake received, counting across runs. */
  readonly index: number;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body; `messages` and `tools` are its fields of the same names. */
  readonly body: Record<string, unknown>;
  readonly messages: FakeMessage[];
  readonly tools: unknown[];
  /** Set when the client closed the connection before the answer was sent (abort, timeout). */
  readonly clientClosed: boolean;
}

export interface FakeMessage {
  role: string;
  /** A user message with attachments has parts: text, and images as data URLs. */
  content: string | FakeContentPart[] | null;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export type FakeContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export interface FakeToolCall {
  name: string;
  /** An object is sent JSON-encoded; a string as is (to test unparsable arguments). */
  arguments: unknown;
  id?: string;
}

export interface FakeUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

interface Common {
  /** Wait this long before answering (the connection stays open meanwhile). */
  delayMs?: number;
}

export type FakeAnswer = Common &
  (
    | { toolCalls: FakeToolCall[]; content?: string; usage?: FakeUsage | null }
    | { text: string; usage?: FakeUsage | null }
    /** An answer of this status with this body (an object is sent as JSON, a string as is). */
    | { status: number; body?: unknown; headers?: Record<string, string> }
    /** Destroy the socket without answering: the client sees a network error. */
    | { drop: true }
  );

export type FakeScript = FakeAnswer[] | ((request: FakeRequest, index: number) => FakeAnswer | Promise<FakeAnswer>);

export interface FakeModel {
  /** The base URL to give the agent, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  readonly requests: readonly FakeRequest[];
  /** Stops the server, closing every connection, pending slow answers included. */
  close(): Promise<void>;
}

/** Usage reported when an answer names none. */
export const DEFAULT_USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } as const;

export async function startFakeModel(script: FakeScript): Promise<FakeModel> {
  const requests: (FakeRequest & { clientClosed: boolean })[] = [];
  const timers = new Set<NodeJS.Timeout>();

  // A failure here fails the run as an unhandled rejection.
  const respond = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(res, 400, { error: { message: "fake model: the body is not JSON" } });
    }
    const path = req.url ?? "/";
    if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
      return send(res, 404, { error: { message: `fake model: no route ${req.method} ${path}` } });
    }

    const index = requests.length;
    const request = {
      index,
      path,
      headers: req.headers,
      body,
      messages: Array.isArray(body.messages) ? (body.messages as FakeMessage[]) : [],
      tools: Array.isArray(body.tools) ? body.tools : [],
      clientClosed: false,
    };
    requests.push(request);
    res.on("close", () => {
      if (!res.writableFinished) request.clientClosed = true;
    });

    let answer: FakeAnswer;
    try {
      answer = Array.isArray(script)
        ? (script[index] ?? {
            status: 500,
            body: { error: { message: `fake model: the script has no answer ${index}` } },
          })
        : await script(request, index);
    } catch (error) {
      return send(res, 500, { error: { message: `fake model: the script threw: ${String(error)}` } });
    }

    if (answer.delayMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, answer.delayMs);
        timers.add(timer);
        // An aborted client or close() ends the wait: nothing is left to answer.
        res.on("close", () => {
          clearTimeout(timer);
          timers.delete(timer);
          resolve();
        });
      });
      if (res.destroyed || res.writableEnded) return;
    }

    if ("drop" in answer) return void req.socket.destroy();
    if ("status" in answer) return send(res, answer.status, answer.body ?? "", answer.headers);
    const model = typeof body.model === "string" ? body.model : "fake";
    send(res, 200, completion(index, model, answer));
  };
  const server = createServer((req, res) => void respond(req, res));

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function completion(
  index: number,
  model: string,
  answer: Extract<FakeAnswer, { text: string } | { toolCalls: FakeToolCall[] }>,
) {
  const usage = answer.usage === undefined ? DEFAULT_USAGE : answer.usage;
  const message =
    "text" in answer
      ? { role: "assistant", content: answer.text }
      : {
          role: "assistant",
          content: answer.content ?? null,
          tool_calls: answer.toolCalls.map((call, n) => ({
            id: call.id ?? `call_${index}_${n}`,
            type: "function",
            function: {
              name: call.name,
              arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
            },
          })),
        };
  return {
    id: `chatcmpl-fake-${index}`,
    object: "chat.completion",
    created: 0,
    model,
    choices: [{ index: 0, message, finish_reason: "text" in answer ? "stop" : "tool_calls" }],
    ...(usage === null ? {} : { usage }),
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const type = typeof body === "string" ? "text/plain; charset=utf-8" : "application/json";
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export interface WritesAppOptions {
  /** Shown as the page's <title> and <h1>. */
  title: string;
  /** The text main.tsx puts into the page at run time; default `Hello from <title>`. */
  text?: string;
  /** The final answer, the run's summary. */
  summary?: string;
  /** Delay before the first answer (the tool calls), to make a slow model. */
  delayMs?: number;
}

/**
 * A script that builds a small app in two answers: tool calls writing index.html, style.css and a
 * main.tsx (TypeScript, so the deploy-time bundling has something to compile), then a final text.
 * It decides from the conversation, not the request count, so one fake can serve many runs.
 */
export function writesApp(options: WritesAppOptions): (request: FakeRequest) => FakeAnswer {
  const title = escapeHtml(options.title);
  const text = options.text ?? `Hello from ${options.title}`;
  const files = {
    "index.html": `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<link rel="stylesheet" href="style.css">
</head>
<body>
<h1>${title}</h1>
<p id="app"></p>
<script type="module" src="main.tsx"></script>
</body>
</html>
`,
    "style.css": `body { font-family: system-ui, sans-serif; margin: 2rem; }\n#app { color: #2563eb; }\n`,
    "main.tsx": `interface Greeting {
  readonly text: string;
}

const greeting: Greeting = { text: ${JSON.stringify(text)} };
const target: HTMLElement | null = document.getElementById("app");
if (target) target.textContent = greeting.text;
`,
  };
  return (request) => {
    if (request.messages.at(-1)?.role === "tool")
      return { text: options.summary ?? `Built ${options.title}: index.html, style.css and main.tsx.` };
    return {
      delayMs: options.delayMs,
      toolCalls: Object.entries(files).map(([path, content]) => ({ name: "write_file", arguments: { path, content } })),
    };
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
