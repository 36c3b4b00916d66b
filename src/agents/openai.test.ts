import { afterEach, describe, expect, it, vi } from "vitest";
import { rejectionOf } from "../../test/support/rejection.ts";
import { startFakeModel, writesApp, type FakeModel, type FakeScript } from "../../test/support/fake-model.ts";
import { AgentError, InsufficientCreditsError, type AgentInput, type UsageMeter } from "./agent.ts";
import {
  createOpenAiAgent,
  MAX_ATTACHED_IMAGE_BYTES,
  MAX_ATTACHMENT_BYTES,
  type OpenAiAgentOptions,
} from "./openai.ts";
import { WorkingTree, type StoredFile } from "./working-tree.ts";

const API_KEY = "sk-test-0123456789abcdef";
const FAST_RETRY = { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 };

let fake: FakeModel | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(script: FakeScript): Promise<FakeModel> {
  fake = await startFakeModel(script);
  return fake;
}

function treeOf(files: Record<string, string> = {}): WorkingTree {
  return new WorkingTree(
    Object.entries(files).map(([path, text]): StoredFile => {
      const bytes = new TextEncoder().encode(text);
      return {
        path,
        sizeBytes: bytes.length,
        contentType: "text/plain",
        sha256: "0".repeat(64),
        read: async () => bytes,
      };
    }),
  );
}

/** Counts tokens; past `limit` it throws as the real meter does when credits run out. */
function meter(limit = Infinity): UsageMeter & { calls: number[] } {
  let tokens = 0;
  const calls: number[] = [];
  return {
    calls,
    addTokens(n) {
      calls.push(n);
      tokens += n;
      if (tokens > limit) throw new InsufficientCreditsError();
    },
    get tokens() {
      return tokens;
    },
  };
}

function input(overrides: Partial<AgentInput> = {}): AgentInput {
  return {
    agent: "coding-agent-1",
    prompt: "Build a recipe box",
    project: { id: "prj_test", name: "Recipe Box", template: "web-app" },
    initial: true,
    files: treeOf(),
    attachments: [],
    signal: new AbortController().signal,
    meter: meter(),
    ...overrides,
  };
}

function agent(model: FakeModel, options: Partial<OpenAiAgentOptions> = {}) {
  return createOpenAiAgent({ baseUrl: model.url, apiKey: API_KEY, model: "test-model", retry: FAST_RETRY, ...options });
}

describe("OpenAI-compatible agent", () => {
  it("sends the model, tools, context and key, and writes the files the model asks for", async () => {
    const model = await start(writesApp({ title: "Recipe <Box>", summary: "Built the recipe box." }));
    const files = treeOf({ "notes.md": "# notes" });
    const usage = meter();
    const result = await agent(model, { baseUrl: `${model.url}/` }).run(input({ files, meter: usage }));

    expect(result).toEqual({ summary: "Built the recipe box." });
    expect(createOpenAiAgent({ baseUrl: model.url, model: "m" }).kind).toBe("model");
    expect(files.list()).toEqual(["index.html", "main.tsx", "notes.md", "style.css"]);
    expect(await files.readText("index.html")).toContain("<title>Recipe &#60;Box&#62;</title>");
    expect(await files.readText("main.tsx")).toContain(
      'const greeting: Greeting = { text: "Hello from Recipe <Box>" };',
    );
    expect(files.changes().writes.map((write) => write.contentType)).toEqual(["text/html", "text/tsx", "text/css"]);

    expect(model.requests).toHaveLength(2);
    const [first, second] = model.requests;
    expect(first!.path).toBe("/v1/chat/completions");
    expect(first!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(first!.body.model).toBe("test-model");
    expect(first!.body.tool_choice).toBe("auto");
    expect(first!.tools.map((tool) => (tool as { function: { name: string } }).function.name)).toEqual([
      "write_file",
      "delete_file",
      "read_file",
      "list_files",
    ]);
    expect(first!.messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(first!.messages[0]!.content).toContain('"Recipe Box" (template: web-app)');
    expect(first!.messages[0]!.content).toContain("index.html");
    expect(first!.messages[0]!.content).toContain("default-src 'self'");
    expect(first!.messages[0]!.content).toContain("The project's files now:\nnotes.md");
    expect(first!.messages[1]!.content).toBe("Build a recipe box");
    // The second call carries the assistant's tool calls and one result per call.
    expect(second!.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "tool",
    ]);
    expect(second!.messages[2]!.tool_calls).toHaveLength(3);
    expect(second!.messages.slice(3).map((message) => [message.tool_call_id, message.content])).toEqual([
      ["call_0_0", expect.stringMatching(/^Wrote index\.html \(\d+ bytes\)\.$/)],
      ["call_0_1", expect.stringMatching(/^Wrote style\.css /)],
      ["call_0_2", expect.stringMatching(/^Wrote main\.tsx /)],
    ]);
    expect(usage.calls).toEqual([120, 120]);
  });

  it("answers read_file, list_files and delete_file, and reports bad tool calls back to the model", async () => {
    const model = await start([
      {
        toolCalls: [
          { name: "list_files", arguments: {} },
          { name: "read_file", arguments: { path: "index.html" } },
          { name: "read_file", arguments: { path: "missing.txt" } },
          { name: "launch_rockets", arguments: {} },
          { name: "write_file", arguments: "{not json" },
          { name: "write_file", arguments: { path: "a.txt" } },
          { name: "delete_file", arguments: { path: "old.css" } },
          { name: "delete_file", arguments: { path: "../x" } },
        ],
      },
      { text: "  Done.  " },
    ]);
    const files = treeOf({ "index.html": "<h1>Hi</h1>", "old.css": "body{}" });
    const result = await agent(model).run(input({ files }));

    expect(result.summary).toBe("Done.");
    expect(files.list()).toEqual(["index.html"]);
    expect(files.changes().deletes).toEqual(["old.css"]);
    expect(
      model.requests[1]!.messages.filter((message) => message.role === "tool").map((message) => message.content),
    ).toEqual([
      "index.html\nold.css",
      "<h1>Hi</h1>",
      "Error: there is no file missing.txt.",
      "Error: there is no tool named launch_rockets; use list_files, read_file, write_file or delete_file.",
      "Error: the arguments of write_file are not a JSON object.",
      "Error: write_file needs a string `path` and a string `content`.",
      "Deleted old.css.",
      expect.stringMatching(/^Error: The agent used an invalid file path: "\.\.\/x" is not a valid path/),
    ]);
  });

  it("uses a default summary when the final answer is empty, and cuts long ones to 1,000 characters", async () => {
    const empty = await start([
      { toolCalls: [{ name: "write_file", arguments: { path: "index.html", content: "x" } }] },
      { text: "" },
    ]);
    expect((await agent(empty).run(input())).summary).toBe("Wrote 1 file and deleted 0.");
    await empty.close();

    const long = await start([{ text: "é".repeat(5000) }]);
    const { summary } = await agent(long).run(input());
    expect([...summary]).toHaveLength(1000);
    expect(summary.endsWith("é…")).toBe(true);
  });

  it("stops at maxTurns with the work done so far, not as a failure", async () => {
    const model = await start((_request, index) => ({
      toolCalls: [{ name: "write_file", arguments: { path: `page${index}.html`, content: "x" } }],
    }));
    const files = treeOf();
    const result = await agent(model, { maxTurns: 3 }).run(input({ files }));
    expect(model.requests).toHaveLength(3);
    expect(files.list()).toEqual(["page0.html", "page1.html", "page2.html"]);
    expect(result.summary).toBe(
      "Stopped at the limit of 3 model turns; kept the work done so far. Wrote 3 files and deleted 0.",
    );
  });

  it("retries a 429 after the Retry-After delay, then succeeds", async () => {
    const model = await start([
      { status: 429, body: { error: { message: "slow down" } }, headers: { "retry-after": "0.3" } },
      { text: "ok" },
    ]);
    const started = performance.now();
    const result = await agent(model, { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2000 } }).run(input());
    const elapsed = performance.now() - started;
    expect(result.summary).toBe("ok");
    expect(model.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1500);
  });

  it("caps Retry-After at maxDelayMs and retries network errors", async () => {
    const model = await start([{ status: 503, headers: { "retry-after": "30" } }, { drop: true }, { text: "ok" }]);
    const started = performance.now();
    const result = await agent(model, { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 20 } }).run(input());
    expect(result.summary).toBe("ok");
    expect(model.requests).toHaveLength(3);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it.each([
    {
      when: "after the configured attempts when every answer is a 500",
      answer: { status: 500, body: { error: { message: "upstream exploded" } } },
      message: 'The model API failed after 3 attempts: HTTP 500: {"error":{"message":"upstream exploded"}}',
      requests: 3,
    },
    {
      when: "at once on a 400, without retrying",
      answer: { status: 400, body: "bad request: unknown model" },
      message: "The model API refused the request with HTTP 400: bad request: unknown model",
      requests: 1,
    },
  ])("fails with agent_error $when", async ({ answer, message, requests }) => {
    const model = await start(() => answer);
    const error = await rejectionOf(agent(model).run(input()));
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ code: "agent_error", message });
    expect(model.requests).toHaveLength(requests);
  });

  it("fails with agent_error on a malformed answer", async () => {
    const model = await start([
      { status: 200, body: "<html>not json</html>" },
      { status: 200, body: { choices: [] } },
    ]);
    const notJson = await rejectionOf(agent(model).run(input()));
    expect(notJson).toMatchObject({
      code: "agent_error",
      message: "The model API answered with a malformed response (not JSON): <html>not json</html>",
    });
    const noChoices = await rejectionOf(agent(model).run(input()));
    expect(noChoices).toMatchObject({
      code: "agent_error",
      message: 'The model API answered with a malformed response (no choices): {"choices":[]}',
    });
  });

  it("fails with agent_error when the model API cannot be reached", async () => {
    const model = await start([]);
    const url = model.url;
    await model.close();
    const error = await rejectionOf(
      agent(model, { baseUrl: url, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }).run(input()),
    );
    expect(error).toMatchObject({ code: "agent_error" });
    expect((error as Error).message).toMatch(
      /^The model API failed after 2 attempts: a network error \(fetch failed: .*ECONNREFUSED/,
    );
  });

  it("rejects with the signal's reason at once when aborted during a slow answer, closing the connection", async () => {
    const model = await start([{ text: "too late", delayMs: 20_000 }]);
    const controller = new AbortController();
    const reason = new Error("run canceled");
    const running = agent(model).run(input({ signal: controller.signal }));
    await vi.waitFor(() => expect(model.requests).toHaveLength(1), { timeout: 2000, interval: 5 });

    const started = performance.now();
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(500);
    await vi.waitFor(() => expect(model.requests[0]!.clientClosed).toBe(true), { timeout: 2000, interval: 5 });
  });

  it("fails with agent_error when the fake model is closed while an answer is pending", async () => {
    const model = await start([{ text: "too late", delayMs: 20_000 }]);
    const running = rejectionOf(agent(model, { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }).run(input()));
    await vi.waitFor(() => expect(model.requests).toHaveLength(1), { timeout: 2000, interval: 5 });
    const started = performance.now();
    await model.close();
    expect(performance.now() - started).toBeLessThan(500);
    expect(await running).toMatchObject({
      code: "agent_error",
      message: expect.stringMatching(/^The model API failed after 2 attempts: a network error/),
    });
  });

  it("rejects with the signal's reason when aborted during a retry wait, or before it starts", async () => {
    const model = await start(() => ({ status: 503, headers: { "retry-after": "20" } }));
    const controller = new AbortController();
    const running = agent(model, { retry: { attempts: 5, baseDelayMs: 1, maxDelayMs: 20_000 } }).run(
      input({ signal: controller.signal }),
    );
    await vi.waitFor(() => expect(model.requests).toHaveLength(1), { timeout: 2000, interval: 5 });
    const started = performance.now();
    const timeout = new DOMException("The run timed out.", "TimeoutError");
    controller.abort(timeout);
    await expect(running).rejects.toBe(timeout);
    expect(performance.now() - started).toBeLessThan(500);
    expect(model.requests).toHaveLength(1);

    const aborted = AbortSignal.abort(new Error("already canceled"));
    await expect(agent(model).run(input({ signal: aborted }))).rejects.toThrow("already canceled");
    expect(model.requests).toHaveLength(1);
  });

  it("fails the run with invalid_output when the model writes outside the project", async () => {
    const model = await start([
      { toolCalls: [{ name: "write_file", arguments: { path: "../evil", content: "x" } }] },
      { text: "unreachable" },
    ]);
    const files = treeOf();
    const error = await rejectionOf(agent(model).run(input({ files })));
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe("invalid_output");
    expect(files.list()).toEqual([]);
    expect(model.requests).toHaveLength(1);
  });

  it("reports each answer's tokens to the meter and lets its InsufficientCreditsError through", async () => {
    const model = await start([
      { toolCalls: [{ name: "list_files", arguments: {} }], usage: { prompt_tokens: 30, completion_tokens: 12 } },
      {
        toolCalls: [{ name: "list_files", arguments: {} }],
        usage: { total_tokens: 500, prompt_tokens: 1, completion_tokens: 1 },
      },
      { toolCalls: [{ name: "list_files", arguments: {} }], usage: null },
      { text: "done", usage: { total_tokens: 7 } },
    ]);
    const usage = meter();
    await agent(model).run(input({ meter: usage }));
    expect(usage.calls).toEqual([42, 500, 0, 7]);
    expect(usage.tokens).toBe(549);

    const pricey = await startFakeModel(() => ({
      toolCalls: [{ name: "list_files", arguments: {} }],
      usage: { total_tokens: 400 },
    }));
    try {
      const error = await rejectionOf(agent(pricey).run(input({ meter: meter(1000) })));
      expect(error).toBeInstanceOf(InsufficientCreditsError);
      expect((error as AgentError).code).toBe("insufficient_credits");
      expect(pricey.requests).toHaveLength(3);
    } finally {
      await pricey.close();
    }
  });

  it("sends attached images as image parts within their limits, text files as text, and names the rest", async () => {
    const model = await start([{ text: "Used the logo." }]);
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const attached = (path: string, contentType: string, bytes: Uint8Array, sizeBytes = bytes.length) => ({
      path,
      contentType,
      sizeBytes,
      read: async () => bytes,
    });
    const text = (value: string) => new TextEncoder().encode(value);
    const attachments = [
      attached("logo.png", "image/png", png),
      attached("notes.md", "text/markdown", text("Use warm colours.")),
      attached("huge.jpg", "image/jpeg", png, MAX_ATTACHMENT_BYTES + 1),
      attached("data.bin", "application/octet-stream", Uint8Array.from([0xff, 0xfe, 0x00])),
    ];
    await agent(model).run(input({ attachments }));
    const [system, user] = model.requests[0]!.messages;
    expect(system!.content).toContain('use an attached image in a page by its path, e.g. <img src="photo.png"');
    expect(user!.content).toEqual([
      { type: "text", text: "Build a recipe box" },
      { type: "text", text: "Attached file logo.png (image/png, 7 bytes):" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${Buffer.from(png).toString("base64")}` } },
      { type: "text", text: "Attached file notes.md (text/markdown, 17 bytes):\nUse warm colours." },
      {
        type: "text",
        text: `Attached file huge.jpg (image/jpeg, ${MAX_ATTACHMENT_BYTES + 1} bytes): over ${MAX_ATTACHMENT_BYTES} bytes, so not shown here.`,
      },
      {
        type: "text",
        text: "Attached file data.bin (application/octet-stream, 3 bytes): not text, so not shown here.",
      },
    ]);
  });

  it("names attached images past the images' total instead of sending them", async () => {
    const model = await start([{ text: "ok" }]);
    const image = new Uint8Array(MAX_ATTACHMENT_BYTES);
    const attachments = ["a", "b", "c", "d", "e"].map((name) => ({
      path: `${name}.png`,
      contentType: "image/png",
      sizeBytes: image.length,
      read: async () => image,
    }));
    await agent(model).run(input({ attachments }));
    const parts = model.requests[0]!.messages[1]!.content as { type: string; text?: string }[];
    expect(parts.filter((part) => part.type === "image_url")).toHaveLength(
      MAX_ATTACHED_IMAGE_BYTES / MAX_ATTACHMENT_BYTES,
    );
    expect(parts.at(-1)!.text).toBe(
      `Attached file e.png (image/png, ${MAX_ATTACHMENT_BYTES} bytes): past the ${MAX_ATTACHED_IMAGE_BYTES} bytes of images shown.`,
    );
  });

  it("never puts the API key in an error, even when the API echoes it", async () => {
    const model = await start([
      { status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}.` } } },
      { status: 500, body: `key ${API_KEY} overloaded` },
      { status: 500, body: `key ${API_KEY} overloaded` },
      { status: 200, body: `not json ${API_KEY}` },
    ]);
    const unauthorized = (await rejectionOf(agent(model).run(input()))) as AgentError;
    expect(unauthorized.code).toBe("agent_error");
    expect(unauthorized.message).toBe(
      'The model API refused the request with HTTP 401: {"error":{"message":"Incorrect API key provided: [redacted]."}}',
    );
    const exhausted = (await rejectionOf(
      agent(model, { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }).run(input()),
    )) as AgentError;
    expect(exhausted.message).toBe("The model API failed after 2 attempts: HTTP 500: key [redacted] overloaded");
    const malformed = (await rejectionOf(agent(model).run(input()))) as AgentError;
    expect(malformed.message).toContain("not json [redacted]");
    for (const error of [unauthorized, exhausted, malformed])
      expect(`${error.message} ${error.stack}`).not.toContain(API_KEY);
    expect(model.requests.every((request) => request.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
  });

  it("sends no Authorization header without a key", async () => {
    const model = await start([{ text: "ok" }]);
    await createOpenAiAgent({ baseUrl: model.url, model: "local" }).run(input());
    expect(model.requests[0]!.headers.authorization).toBeUndefined();
  });
});
