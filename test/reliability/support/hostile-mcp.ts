// Hostile MCP messages, generated with fast-check like the suite's HTTP requests (hostile.ts), for
// POST /mcp: messages that are not JSON, not JSON-RPC or not a request this server answers (batches,
// responses, unknown methods, malformed ids and params, wrong media types, encodings, sizes and
// protocol versions, refused credentials), and tool calls that are invalid but for one thing —
// an unknown tool, arguments of the wrong kind, an argument the tool lacks, a path or query
// parameter the contract refuses, a body from the HTTP suite's invalid bodies, an upload's parts, an
// Idempotency-Key, a credential. Each must be refused in the protocol's shape (a JSON-RPC error, or
// a tool result with `isError` and the API's error object), never with a 5xx, storing nothing.
import fc from "fast-check";
import { mcpTools } from "../../../generated/mcp-tools.ts";
import { contract } from "../../support/contract.ts";
import type { RawResponse } from "./http.ts";
import {
  anyString,
  contractOperations,
  jsonBodies,
  notMatching,
  oddCharacters,
  refusedFilePaths,
  webhookTargets,
  type ContractOperation,
  type HostileCase,
  type HostileFixture,
} from "./hostile.ts";

const MCP = "/mcp";
const toolNames = new Set<string>(mcpTools.map(({ tool }) => tool.name));
const headersOf = (key: string | undefined): Record<string, string> => ({
  ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
});

/** A case whose body is `message` as JSON (or as written, when a string). */
function mcpCase(
  kind: string,
  message: unknown,
  fixture: HostileFixture,
  options: { headers?: Record<string, string>; operationId?: string; idempotencyKey?: string } = {},
): HostileCase {
  return {
    kind: `mcp ${kind}`,
    operationId: options.operationId,
    method: "POST",
    path: MCP,
    headers: options.headers ?? headersOf(fixture.key),
    body: typeof message === "string" ? message : JSON.stringify(message),
    ...(options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
    accepts: "an MCP refusal",
  };
}

export function hostileMcpCases(fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  const tools = contractOperations.filter((operation) => toolNames.has(operation.operationId));
  return fc.oneof(
    { arbitrary: envelopes(fixture), weight: 3 },
    { arbitrary: fc.oneof(...tools.map((operation) => toolCalls(operation, fixture))), weight: 7 },
  );
}

// ---------------------------------------------------------------------------------------------
// Messages

function envelopes(fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  const request = { jsonrpc: "2.0", id: 1, method: "tools/list" };
  const valid = JSON.stringify(request);
  const notJson = fc
    .oneof(
      fc.constantFrom(
        "",
        "{",
        "[",
        "nul",
        "tru",
        valid.slice(0, -1),
        `${valid}x`,
        `${valid}${valid}`,
        `\ufeff${valid}`,
        valid.replace(/"/g, "'"),
        "{'jsonrpc': '2.0'}",
        `{"jsonrpc":"2.0","id":1,"method":"ping",}`,
      ),
      fc.integer({ min: 1, max: valid.length - 1 }).map((at) => valid.slice(0, at)),
    )
    .map((text) => mcpCase("not JSON", text, fixture));
  const notAnObject = fc
    .oneof(
      fc.constant([request]),
      fc.constant([]),
      fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 3 }),
      fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
    )
    .map((value) => mcpCase(Array.isArray(value) ? "batch" : "not an object", value, fixture));
  const wrongValue = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.constant({}),
    fc.constant([]),
    anyString,
  );
  const malformed = fc.oneof(
    fc
      .constantFrom(undefined, "1.0", "2", 2, null, "2.0 ")
      .map((jsonrpc) => mcpCase(`jsonrpc ${JSON.stringify(jsonrpc)}`, { ...request, jsonrpc }, fixture)),
    wrongValue
      .filter((method) => typeof method !== "string")
      .map((method) => mcpCase("method not a string", { ...request, method }, fixture)),
    fc
      .constantFrom(null, {}, [], true, false, [1])
      .map((id) => mcpCase(`id ${JSON.stringify(id)}`, { ...request, id }, fixture)),
    fc
      .constantFrom([], "x", 1, null, true)
      .map((params) => mcpCase(`params ${JSON.stringify(params)}`, { ...request, method: "ping", params }, fixture)),
    fc
      .constantFrom({ jsonrpc: "2.0", id: 1, result: {} }, { jsonrpc: "2.0", id: 1, error: { code: -1, message: "x" } })
      .map((message) => mcpCase("a response", message, fixture)),
    anyString
      .filter((method) => !["initialize", "ping", "tools/list", "tools/call"].includes(method))
      .map((method) => mcpCase("unknown method", { ...request, method }, fixture)),
    fc.constantFrom(undefined, 2025, null, {}, []).map((protocolVersion) =>
      mcpCase(
        `initialize protocolVersion ${JSON.stringify(protocolVersion)}`,
        {
          ...request,
          method: "initialize",
          params: { protocolVersion, capabilities: {}, clientInfo: { name: "h", version: "1" } },
        },
        fixture,
      ),
    ),
  );
  const mediaTypes = fc.oneof(
    fc
      .constantFrom(
        undefined,
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonl",
        "",
        "*/*",
      )
      .map((type) => {
        const { "Content-Type": _, ...rest } = headersOf(fixture.key);
        return mcpCase(`Content-Type ${type}`, request, fixture, {
          headers: type === undefined ? rest : { ...rest, "Content-Type": type },
        });
      }),
    fc.constantFrom("gzip", "br", "deflate").map((encoding) =>
      mcpCase(`Content-Encoding ${encoding}`, request, fixture, {
        headers: { ...headersOf(fixture.key), "Content-Encoding": encoding },
      }),
    ),
  );
  const versions = fc
    .oneof(
      fc.constantFrom("", "2024-10-07", "2025-13-01", "latest", "2025-06-18T00:00", "1"),
      fc.string({ unit: fc.constantFrom(..."0123456789-abc"), minLength: 1, maxLength: 20 }),
    )
    .filter((version) => !["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"].includes(version))
    .map((version) =>
      mcpCase(`MCP-Protocol-Version ${JSON.stringify(version)}`, request, fixture, {
        headers: { ...headersOf(fixture.key), "MCP-Protocol-Version": version },
      }),
    );
  const oversized = fc.oneof(
    fc.integer({ min: 2 * 1024 * 1024 + 1, max: 2 ** 31 }).map((declared) =>
      mcpCase("oversized (declared)", request, fixture, {
        headers: { ...headersOf(fixture.key), "Content-Length": String(declared) },
      }),
    ),
    fc.constant(
      mcpCase("oversized (sent)", { ...request, params: { pad: "p".repeat(2 * 1024 * 1024 + 10) } }, fixture),
    ),
  );
  return fc.oneof(
    notJson,
    notAnObject,
    malformed,
    mediaTypes,
    versions,
    oversized,
    credentials(undefined, request, fixture),
  );
}

/** The message sent with a credential that is refused (or, for a tool with ids, one that does not reach them). */
function credentials(
  operation: ContractOperation | undefined,
  message: unknown,
  fixture: HostileFixture,
): fc.Arbitrary<HostileCase> {
  const lacking =
    operation && operation.scopes.length > 0
      ? [operation.scopes.includes("billing:read") ? fixture.projectsReadKey : fixture.billingOnlyKey]
      : [];
  const elsewhere = operation?.parameters.some((parameter) => parameter.in === "path")
    ? [fixture.testKey, fixture.otherWorkspaceKey]
    : [];
  const forged = fc
    .string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789"), maxLength: 40 })
    .map((rest) => `svc_live_${rest}`);
  return fc
    .oneof(
      fc.constantFrom<string | undefined>(
        undefined,
        fixture.revokedKey,
        fixture.expiredKey,
        `${fixture.key}x`,
        ...lacking,
        ...elsewhere,
      ),
      forged,
    )
    .map((key) =>
      mcpCase(`credential ${key === undefined ? "none" : key.slice(0, 24)}`, message, fixture, {
        headers: headersOf(key),
        operationId: operation?.operationId,
      }),
    );
}

// ---------------------------------------------------------------------------------------------
// Tool calls

/** The arguments of a call that the operation would take: the fixture's ids, the contract's example body. */
function validArguments(operation: ContractOperation, fixture: HostileFixture): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const parameter of operation.parameters.filter((parameter) => parameter.in === "path"))
    args[parameter.name] = fixture.ids[parameter.name];
  if (operation.operationId === "uploadFile") args.body = { path: "hostile.txt", file: { text: "hello" } };
  else if (operation.body?.mediaTypes.includes("application/json")) args.body = operation.body.example ?? {};
  return args;
}

function toolCalls(operation: ContractOperation, fixture: HostileFixture): fc.Arbitrary<HostileCase> {
  const name = operation.operationId;
  const valid = validArguments(operation, fixture);
  const call = (kind: string, args: unknown, options: { key?: string; rawBody?: string } = {}): HostileCase => {
    let message = JSON.stringify({
      jsonrpc: "2.0",
      id: `c-${name}`,
      method: "tools/call",
      params: { name, arguments: options.rawBody === undefined ? args : { ...(args as object), body: RAW } },
    });
    // A body nested deeper than JSON.stringify can go is spliced in as written.
    if (options.rawBody !== undefined) message = message.replace(JSON.stringify(RAW), options.rawBody);
    return mcpCase(`${name}: ${kind}`, message, fixture, {
      operationId: name,
      ...(options.key === undefined ? {} : { idempotencyKey: options.key }),
    });
  };
  const cases: fc.Arbitrary<HostileCase>[] = [];
  const path = operation.parameters.filter((parameter) => parameter.in === "path");
  const query = operation.parameters.filter((parameter) => parameter.in === "query");
  const known = new Set([
    ...operation.parameters.filter((parameter) => parameter.in !== "header").map((parameter) => parameter.name),
    "body",
    "idempotency_key",
  ]);

  cases.push(
    credentials(
      operation,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: valid } },
      fixture,
    ),
  );
  cases.push(
    fc
      .oneof(fc.constant([valid]), fc.string(), fc.integer(), fc.constant(null), fc.boolean())
      .map((args) =>
        mcpCase(
          `${name}: arguments ${JSON.stringify(args).slice(0, 20)}`,
          { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
          fixture,
        ),
      ),
  );
  cases.push(
    fc
      .tuple(
        fc.oneof(
          anyString,
          fc.constantFrom("__proto__", "constructor", "Body", "projectId", "Idempotency-Key", "headers"),
        ),
        fc.jsonValue({ maxDepth: 2 }),
      )
      .filter(([argument]) => !known.has(argument))
      .map(([argument, value]) =>
        call(`unknown argument ${JSON.stringify(argument).slice(0, 30)}`, { ...valid, [argument]: value }),
      ),
  );
  // Another tool's name, misspelt or not a string.
  cases.push(
    fc
      .oneof(
        anyString.filter((tool) => !toolNames.has(tool)),
        fc.constantFrom(name.toUpperCase(), `${name} `, name.slice(1), `v1.${name}`),
      )
      .map((tool) =>
        mcpCase(
          `unknown tool ${JSON.stringify(tool).slice(0, 30)}`,
          { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: valid } },
          fixture,
        ),
      ),
  );
  cases.push(
    fc
      .constantFrom(undefined, null, 42, {}, [name])
      .map((tool) =>
        mcpCase(
          `tool name ${JSON.stringify(tool)}`,
          { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: valid } },
          fixture,
        ),
      ),
  );

  for (const parameter of path) {
    const prefix = (parameter.schema.pattern ?? "").match(/^\^(\w+_)/)?.[1] ?? "";
    const values = fc.oneof(
      notMatching(parameter.schema),
      fc.constantFrom<unknown>(
        ".",
        "..",
        null,
        42,
        true,
        {},
        [fixture.ids[parameter.name]],
        "",
        `${fixture.ids[parameter.name]}/x`,
      ),
      fc
        .string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789"), minLength: 8, maxLength: 32 })
        .map((random) => prefix + random),
      ...(parameter.name === "project_id" ? [fc.constant(fixture.otherProjectId)] : []),
    );
    cases.push(
      values.map((value) =>
        call(`path ${parameter.name} ${JSON.stringify(value)?.slice(0, 30)}`, { ...valid, [parameter.name]: value }),
      ),
    );
  }
  for (const parameter of query) {
    const values =
      parameter.name === "limit"
        ? fc.constantFrom<unknown>(0, 101, -1, 1.5, "abc", "NaN", 1e12, true, {}, [0], "１０")
        : parameter.name === "cursor"
          ? fc.oneof(
              fc.string({
                unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
                minLength: 1,
                maxLength: 512,
              }),
              fc.constantFrom<unknown>("x".repeat(513), {}, 7, "%00"),
            )
          : fc.oneof(notMatching(parameter.schema), fc.constantFrom<unknown>({}, 42, [{}]));
    cases.push(
      values.map((value) =>
        call(`query ${parameter.name} ${JSON.stringify(value).slice(0, 30)}`, { ...valid, [parameter.name]: value }),
      ),
    );
  }
  if (operation.idempotent) {
    cases.push(
      fc
        .oneof(
          fc.constantFrom("", "a b", "caf\u00e9", "key\u00a0x", "\u0000", "tab\tkey"),
          fc.integer({ min: 256, max: 4000 }).map((length) => "k".repeat(length)),
        )
        .map((key) => call("idempotency_key malformed", { ...valid, idempotency_key: key }, { key })),
    );
  }
  if (operation.body?.mediaTypes.includes("application/json")) {
    // The HTTP suite's invalid bodies, as the `body` argument: parsed when they are JSON, else as a string.
    cases.push(
      jsonBodies(operation, fixture).map((hostile) => {
        const text = String(hostile.body);
        const json = (() => {
          try {
            JSON.parse(text);
            return true;
          } catch {
            return false;
          }
        })();
        return json
          ? call(`body: ${hostile.kind}`, valid, { rawBody: text })
          : call(`body: ${hostile.kind}`, { ...valid, body: text });
      }),
    );
    cases.push(
      fc.constant(
        call("body over 1 MiB", { ...valid, body: { ...(valid.body as object), name: "n".repeat(1024 * 1024 + 10) } }),
      ),
    );
    if (operation.operationId === "createWebhookEndpoint" || operation.operationId === "updateWebhookEndpoint") {
      cases.push(
        webhookTargets(operation, fixture).map((hostile) =>
          call(hostile.kind, { ...valid, body: JSON.parse(String(hostile.body)) as unknown }),
        ),
      );
    }
  }
  if (operation.operationId === "uploadFile") cases.push(uploads(call, fixture));
  if (!operation.idempotent) return fc.oneof(...cases);
  // A call to an idempotent operation names its key (one of its own), so that a refusal the
  // operation stores for replay is accounted for; without one the server would make one up.
  return fc.tuple(fc.oneof(...cases), fc.uuid()).map(([hostile, uuid]) => keyed(hostile, `hostile-${uuid}`));
}

/** Stands for a body spliced into a message as written. */
const RAW = "\u0000raw body";

/** The case with `key` as its call's idempotency_key, unless it names one or is no call of its tool. */
function keyed(hostile: HostileCase, key: string): HostileCase {
  const text = String(hostile.body);
  let message: { method?: string; params?: { name?: unknown; arguments?: unknown } };
  try {
    message = JSON.parse(text) as typeof message;
  } catch {
    // Not JSON once its body was spliced in (a raw body that is JSON alone, but not in place):
    // no call the server could carry out, so no key to account for.
    return hostile;
  }
  const args = message.params?.arguments;
  if (
    message.method !== "tools/call" ||
    message.params?.name !== hostile.operationId ||
    hostile.idempotencyKey !== undefined
  )
    return hostile;
  if (args === null || typeof args !== "object" || Array.isArray(args) || "idempotency_key" in args) return hostile;
  // Spliced in rather than stringified again: the arguments may be nested too deep for that. The
  // messages are written with `arguments` after the tool's name, so its first match is the member.
  const at = text.indexOf('"arguments":{') + '"arguments":{'.length;
  const member = `"idempotency_key":${JSON.stringify(key)}${text[at] === "}" ? "" : ","}`;
  return { ...hostile, idempotencyKey: key, body: text.slice(0, at) + member + text.slice(at) };
}

function uploads(
  call: (kind: string, args: unknown) => HostileCase,
  fixture: HostileFixture,
): fc.Arbitrary<HostileCase> {
  const upload = (kind: string, body: unknown, project = fixture.ids.project_id) =>
    call(`upload ${kind}`, { project_id: project, body });
  const text = { text: "hello" };
  return fc.oneof(
    fc
      .constantFrom(...refusedFilePaths)
      .map((path) => upload(`path ${JSON.stringify(path.slice(0, 30))}`, { path, file: text })),
    fc
      .constantFrom("..", ".", "/", "../", "\u0301")
      .map((filename) =>
        upload(`filename ${JSON.stringify(filename)} without a path`, { file: { ...text, filename } }),
      ),
    fc
      .constantFrom<unknown>(
        undefined,
        "hello",
        42,
        null,
        [],
        {},
        { text: "a", content_base64: "YQ==" },
        { text: 42 },
        { content_base64: ["YQ=="] },
        { text: "a", mode: "0644" },
      )
      .map((file) =>
        upload(`file ${JSON.stringify(file)?.slice(0, 40)}`, {
          path: "x.txt",
          ...(file === undefined ? {} : { file }),
        }),
      ),
    fc
      .constantFrom("not base64!", "YQ", "YQ=", "Y===", "====", "YQ==YQ==", "\u00e9\u00e9\u00e9\u00e9")
      .map((content) =>
        upload(`base64 ${JSON.stringify(content)}`, { path: "x.txt", file: { content_base64: content } }),
      ),
    // A quote, a backslash or a line break is a name like any other (test/mcp.test.ts); a NUL is not.
    fc
      .constantFrom("a\u0000.txt", "\u0000", 'a"b\u0000')
      .map((filename) =>
        upload(`filename ${JSON.stringify(filename)}`, { path: "x.txt", file: { ...text, filename } }),
      ),
    fc.constantFrom("text/plain\u0000", "\u0000").map((contentType) =>
      upload(`content_type ${JSON.stringify(contentType)}`, {
        path: "x.txt",
        file: { ...text, content_type: contentType },
      }),
    ),
    anyString
      .filter((part) => part !== "file" && part !== "path" && part.isWellFormed())
      .map((part) => upload("an unknown part", { path: "x.txt", file: text, [part]: "v" })),
    fc.constant(upload("to a taken path", { path: fixture.takenPath, file: text })),
    fc.constant(upload("to another workspace's project", { path: "x.txt", file: text }, fixture.otherProjectId)),
    fc.constant(upload("over 1 MiB", { path: "big.txt", file: { text: "b".repeat(1024 * 1024 + 1) } })),
    fc
      .constantFrom(...oddCharacters.filter((odd) => odd !== "\u0000"))
      .map((odd) => upload(`path with ${JSON.stringify(odd)}`, { path: `a${odd}.txt`, file: text })),
  );
}

// ---------------------------------------------------------------------------------------------
// Answers

const RPC_CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32000]);

/** What is wrong with the answer to an invalid message: anything but a refusal in the protocol's shape. And the tool's status, for a call that reached the API. */
export async function mcpProblems(response: RawResponse): Promise<{ problems: string[]; status: number }> {
  const api = await contract();
  const problems: string[] = [];
  const errorShape = (value: unknown, where: string) => {
    for (const error of api.validator.validateResponse(value, "getProject", 404).errors ?? [])
      problems.push(`${where}: ${error.instancePath} ${error.message}`);
  };
  if (response.status >= 500) problems.push(`status ${response.status}`);
  const answer = response.json as
    | {
        jsonrpc?: unknown;
        error?: { code?: unknown; message?: unknown; data?: unknown };
        result?: Record<string, unknown>;
      }
    | undefined;
  if (answer === undefined || answer.jsonrpc !== "2.0") {
    problems.push(
      `not a JSON-RPC answer (${response.headers["content-type"]}): ${response.body.toString("utf8").slice(0, 200)}`,
    );
    return { problems, status: response.status };
  }
  if (answer.error) {
    if (!RPC_CODES.has(answer.error.code as number)) problems.push(`error code ${JSON.stringify(answer.error.code)}`);
    if (typeof answer.error.message !== "string" || answer.error.message === "")
      problems.push("error without a message");
    if (answer.error.data !== undefined) errorShape(answer.error.data, "error.data");
    return { problems, status: response.status };
  }
  const result = answer.result ?? {};
  if (response.status !== 200) problems.push(`a result with status ${response.status}`);
  if (result.isError !== true) problems.push("an invalid call answered without isError");
  errorShape(result.structuredContent, "structuredContent");
  const [content] = (result.content ?? []) as { type?: string; text?: string }[];
  if (
    content?.type !== "text" ||
    JSON.stringify(JSON.parse(content.text ?? "null")) !== JSON.stringify(result.structuredContent)
  )
    problems.push("content is not the error object as text");
  const status = (result._meta as Record<string, unknown> | undefined)?.["project-builder/status"];
  return { problems, status: typeof status === "number" ? status : 400 };
}
