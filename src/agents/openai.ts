// An agent backed by any OpenAI-compatible chat-completions API: the model gets four file tools and
// works on the run's WorkingTree in a loop of calls until it answers without tool calls. Files
// attached to the prompt go with it: an image as an `image_url` part (a data URL), a text file as
// a text part, each within MAX_ATTACHMENT_BYTES; anything else, or larger, is named in text.
//
// Failure rules the run worker relies on: when the run's signal aborts, the signal's reason is
// thrown as is (so cancel and timeout stay distinguishable from failure); a model or network
// failure is AgentError `agent_error`; a write the tree refuses is AgentError `invalid_output`;
// the meter's InsufficientCreditsError and BudgetExceededError pass through. The API key appears in
// no error message.
import { setTimeout as delay } from "node:timers/promises";
import { AgentError, type Agent, type AgentInput, type AgentResult } from "./agent.ts";

export interface OpenAiAgentOptions {
  /** The API root that `/chat/completions` is appended to, e.g. `https://api.openai.com/v1`. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
  /** Model calls per run; reaching it ends the run with the work done so far. Default 20. */
  readonly maxTurns?: number;
  readonly retry?: {
    /** Tries per model call in all, the first included. Default 5. */
    readonly attempts?: number;
    readonly baseDelayMs?: number;
    readonly maxDelayMs?: number;
  };
  readonly fetch?: typeof fetch;
}

/** What a read_file answer may hold: past this the model gets the start and a note. */
const MAX_READ_CHARS = 100_000;
/** The largest attached file shown to the model (an image's bytes, a text's content); larger ones are named. */
export const MAX_ATTACHMENT_BYTES = 1024 * 1024;
/** The attached images' bytes shown in all: every request of the run carries them again. */
export const MAX_ATTACHED_IMAGE_BYTES = 4 * 1024 * 1024;
/** What an attached text's part holds at most; the model reads the rest with read_file. */
const MAX_ATTACHED_TEXT_CHARS = 20_000;
// The image types chat-completions APIs accept in an image part; an SVG goes as text.
const MODEL_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const MAX_SUMMARY = 1000;
const EXCERPT_CHARS = 200;

interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ContentPart[] }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

interface Completion {
  message: { content: string | null; tool_calls: ToolCall[] };
  tokens: number;
}

const TOOLS = [
  tool("write_file", "Create or replace a file of the project with the given text content.", {
    path: { type: "string", description: "Relative path, e.g. index.html or src/main.tsx." },
    content: { type: "string", description: "The file's full new content." },
  }),
  tool("delete_file", "Delete a file of the project.", { path: { type: "string" } }),
  tool("read_file", "Read a file of the project as text.", { path: { type: "string" } }),
  tool("list_files", "List the paths of all files of the project.", {}),
];

function tool(name: string, description: string, properties: Record<string, object>) {
  return {
    type: "function",
    function: {
      name,
      description,
      parameters: { type: "object", properties, required: Object.keys(properties), additionalProperties: false },
    },
  } as const;
}

export function createOpenAiAgent(options: OpenAiAgentOptions): Agent {
  const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const maxTurns = Math.max(1, options.maxTurns ?? 20);
  const retry = {
    attempts: Math.max(1, options.retry?.attempts ?? 5),
    baseDelayMs: options.retry?.baseDelayMs ?? 500,
    maxDelayMs: options.retry?.maxDelayMs ?? 8000,
  };
  const doFetch = options.fetch ?? fetch;
  // Any text that may reach an error message passes through here first: some APIs echo the key.
  const redact = (text: string) => (options.apiKey ? text.split(options.apiKey).join("[redacted]") : text);

  async function complete(messages: Message[], signal: AbortSignal): Promise<Completion> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const body = JSON.stringify({ model: options.model, messages, tools: TOOLS, tool_choice: "auto" });

    for (let attempt = 1; ; attempt++) {
      signal.throwIfAborted();
      let failure: string;
      let retryAfterMs: number | undefined;
      try {
        const response = await doFetch(endpoint, { method: "POST", headers, body, signal });
        const text = await response.text();
        if (response.ok) return parseCompletion(text, redact);
        failure = `HTTP ${response.status}${text ? `: ${excerpt(redact(text))}` : ""}`;
        if (response.status !== 429 && response.status < 500) {
          throw new AgentError("agent_error", `The model API refused the request with ${failure}`);
        }
        retryAfterMs = retryAfter(response.headers.get("retry-after"));
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (error instanceof AgentError) throw error;
        failure = `a network error (${redact(describe(error))})`;
      }
      if (attempt >= retry.attempts) {
        throw new AgentError(
          "agent_error",
          `The model API failed after ${attempt} attempt${attempt === 1 ? "" : "s"}: ${failure}`,
        );
      }
      // Ends at once with the signal's reason (a cancel, the run's timeout) when it aborts.
      await delay(Math.min(retry.maxDelayMs, retryAfterMs ?? backoff(attempt, retry.baseDelayMs)), undefined, {
        signal,
      }).catch((error: unknown) => {
        throw signal.aborted ? signal.reason : error;
      });
    }
  }

  return {
    kind: "model",
    async run(input: AgentInput): Promise<AgentResult> {
      const { signal } = input;
      const messages: Message[] = [
        { role: "system", content: systemPrompt(input) },
        { role: "user", content: await userContent(input) },
      ];
      for (let turn = 1; turn <= maxTurns; turn++) {
        const { message, tokens } = await complete(messages, signal);
        input.meter.addTokens(tokens);
        if (message.tool_calls.length === 0) {
          const summary = message.content?.trim() || defaultSummary(input);
          return { summary: truncate(summary, MAX_SUMMARY) };
        }
        messages.push({ role: "assistant", content: message.content, tool_calls: message.tool_calls });
        for (const call of message.tool_calls) {
          signal.throwIfAborted();
          const result = await runTool(input, call);
          messages.push({ role: "tool", tool_call_id: call.id, content: result });
          input.progress?.(progressOf(call, result));
        }
      }
      return {
        summary: truncate(
          `Stopped at the limit of ${maxTurns} model turns; kept the work done so far. ${defaultSummary(input)}`,
          MAX_SUMMARY,
        ),
      };
    },
  };
}

function systemPrompt(input: AgentInput): string {
  const files = input.files.list();
  return [
    `You are a coding agent building a static web app for the project "${input.project.name}" (template: ${input.project.template}).`,
    "Work only through the tools: list_files, read_file, write_file and delete_file. Paths are relative to the project root (no leading /, no ..).",
    "The app's entry is index.html at the root; it is required. Link styles and scripts as files with relative paths.",
    'TypeScript and JSX entry points referenced from index.html as <script type="module" src="main.tsx"></script> are bundled at deploy time.',
    "The app is served with a strict Content-Security-Policy (default-src 'self'): no inline scripts, inline event handlers, inline styles or style attributes, and no resources from other origins.",
    "When you are done, answer without tool calls with a sentence or two on what you changed.",
    ...(input.attachments.length > 0
      ? [
          'The files attached to the request are files of the project: use an attached image in a page by its path, e.g. <img src="photo.png" alt="…">.',
        ]
      : []),
    files.length > 0 ? `The project's files now:\n${files.join("\n")}` : "The project has no files yet.",
  ].join("\n");
}

/** The request: the prompt alone, or with a part for each attached file after it. */
async function userContent(input: AgentInput): Promise<string | ContentPart[]> {
  if (input.attachments.length === 0) return input.prompt;
  const parts: ContentPart[] = [{ type: "text", text: input.prompt }];
  let imageBytes = 0;
  for (const { path, contentType, sizeBytes, read } of input.attachments) {
    input.signal.throwIfAborted();
    const named = `Attached file ${path} (${contentType}, ${sizeBytes} bytes)`;
    if (sizeBytes > MAX_ATTACHMENT_BYTES) {
      parts.push({ type: "text", text: `${named}: over ${MAX_ATTACHMENT_BYTES} bytes, so not shown here.` });
    } else if (MODEL_IMAGE_TYPES.has(contentType)) {
      if (imageBytes + sizeBytes > MAX_ATTACHED_IMAGE_BYTES) {
        parts.push({ type: "text", text: `${named}: past the ${MAX_ATTACHED_IMAGE_BYTES} bytes of images shown.` });
        continue;
      }
      imageBytes += sizeBytes;
      const url = `data:${contentType};base64,${Buffer.from(await read()).toString("base64")}`;
      parts.push({ type: "text", text: `${named}:` }, { type: "image_url", image_url: { url } });
    } else {
      const text = textOf(await read());
      if (text === undefined) parts.push({ type: "text", text: `${named}: not text, so not shown here.` });
      else if (text.length <= MAX_ATTACHED_TEXT_CHARS) parts.push({ type: "text", text: `${named}:\n${text}` });
      else {
        const start = text.slice(0, MAX_ATTACHED_TEXT_CHARS);
        parts.push({
          type: "text",
          text: `${named}, its first ${MAX_ATTACHED_TEXT_CHARS} characters (read_file shows more):\n${start}`,
        });
      }
    }
  }
  return parts;
}

/** The content as UTF-8 text, or undefined when it is not. */
function textOf(content: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(content);
  } catch {
    return undefined;
  }
}

/** What a tool call did, for `agent_run.progress`: the tool, its path, and whether it failed. */
function progressOf(call: ToolCall, result: string): string {
  let path: unknown;
  try {
    path = (JSON.parse(call.function.arguments || "{}") as { path?: unknown }).path;
  } catch {
    path = undefined;
  }
  const failed = result.startsWith("Error:") ? " (failed)" : "";
  return `${call.function.name}${typeof path === "string" ? ` ${path}` : ""}${failed}`;
}

/** Runs one tool call. A bad call is the model's to fix, so it goes back as the tool result. */
async function runTool(input: AgentInput, call: ToolCall): Promise<string> {
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(call.function.arguments || "{}");
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    args = parsed as Record<string, unknown>;
  } catch {
    return `Error: the arguments of ${call.function.name} are not a JSON object.`;
  }
  const path = typeof args.path === "string" ? args.path : undefined;
  const files = input.files;
  try {
    switch (call.function.name) {
      case "list_files": {
        const paths = files.list();
        return paths.length > 0 ? paths.join("\n") : "(no files)";
      }
      case "read_file": {
        if (path === undefined) return "Error: read_file needs a string `path`.";
        const content = await files.read(path);
        if (content === undefined) return `Error: there is no file ${path}.`;
        const text = textOf(content);
        if (text === undefined)
          return `Error: ${path} is a binary file (${content.length} bytes) and cannot be shown as text.`;
        if (text.length <= MAX_READ_CHARS) return text;
        return `${text.slice(0, MAX_READ_CHARS)}\n[Truncated: ${path} has ${text.length} characters; only the first ${MAX_READ_CHARS} are shown. Do not rewrite it whole.]`;
      }
      case "write_file": {
        if (path === undefined || typeof args.content !== "string")
          return "Error: write_file needs a string `path` and a string `content`.";
        // A write the tree refuses (bad path, limits) fails the run: it is thrown, not reported back.
        files.write(path, args.content);
        return `Wrote ${path} (${new TextEncoder().encode(args.content).length} bytes).`;
      }
      case "delete_file": {
        if (path === undefined) return "Error: delete_file needs a string `path`.";
        try {
          return files.delete(path) ? `Deleted ${path}.` : `Error: there is no file ${path}.`;
        } catch (error) {
          return `Error: ${describe(error)}`;
        }
      }
      default:
        return `Error: there is no tool named ${call.function.name}; use list_files, read_file, write_file or delete_file.`;
    }
  } catch (error) {
    if (error instanceof AgentError) throw error;
    return `Error: ${describe(error)}`;
  }
}

function parseCompletion(text: string, redact: (text: string) => string): Completion {
  const malformed = (why: string) =>
    new AgentError(
      "agent_error",
      `The model API answered with a malformed response (${why}): ${excerpt(redact(text))}`,
    );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw malformed("not JSON");
  }
  const choice: unknown = isObject(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (!isObject(choice) || !isObject(choice.message)) throw malformed("no choices");
  const { content, tool_calls: calls } = choice.message;
  if (calls !== undefined && calls !== null && !Array.isArray(calls)) throw malformed("tool_calls is not a list");
  const toolCalls: ToolCall[] = (Array.isArray(calls) ? calls : []).map((call: unknown, index: number) => {
    const fn = isObject(call) && isObject(call.function) ? call.function : {};
    return {
      id: isObject(call) && typeof call.id === "string" ? call.id : `call_${index}`,
      type: "function",
      function: {
        name: typeof fn.name === "string" ? fn.name : "",
        arguments: typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
      },
    };
  });
  return {
    message: { content: typeof content === "string" ? content : null, tool_calls: toolCalls },
    tokens: tokensOf(isObject(body) ? body.usage : undefined),
  };
}

function tokensOf(usage: unknown): number {
  if (!isObject(usage)) return 0;
  const count = (value: unknown) =>
    typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
  return typeof usage.total_tokens === "number"
    ? count(usage.total_tokens)
    : count(usage.prompt_tokens) + count(usage.completion_tokens);
}

function defaultSummary(input: AgentInput): string {
  const { writes, deletes } = input.files.changes();
  return `Wrote ${writes.length} file${writes.length === 1 ? "" : "s"} and deleted ${deletes.length}.`;
}

/** Exponential backoff with "equal jitter": at least half the delay, so retries never bunch at 0. */
function backoff(attempt: number, baseDelayMs: number): number {
  const delay = baseDelayMs * 2 ** (attempt - 1);
  return delay / 2 + Math.random() * (delay / 2);
}

/** Retry-After in seconds (the HTTP-date form is rare from these APIs and ignored). */
function retryAfter(header: string | null): number | undefined {
  if (header === null || !/^\s*\d+(\.\d+)?\s*$/.test(header)) return undefined;
  return Number(header) * 1000;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch reports "fetch failed" and keeps the useful part (ECONNREFUSED, socket closed) in cause.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

function excerpt(text: string): string {
  return truncate(text.replace(/\s+/g, " ").trim(), EXCERPT_CHARS);
}

/** Cuts at a code point, never inside a surrogate pair. */
function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
